import type {
  Actor,
  RecordingCaption,
  TimelineEntry,
  TimelineKind,
  TimelineLink,
  TimelinePage,
} from '@sessionboxer/contracts';
import { describeActor } from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import { docId } from './doc-id';
import type { DocumentChange, Projection } from './projection';
import type { ReadModelReader } from './store/read-model-store';

export type { TimelineEntry, TimelineKind, TimelinePage };

type Data = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v ?? null));
const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);

interface Rule {
  kind: TimelineKind;
  summary: (d: Data, actor: Actor | null) => string;
  link?: (d: Data) => TimelineLink;
}

const transcript = (): TimelineLink => ({ pane: 'transcript' });
const snapshot = (d: Data): TimelineLink => ({ pane: 'snapshots', snapshotId: str(d.snapshotId) });
const terminal = (d: Data): TimelineLink => ({ pane: 'terminals', terminalId: str(d.terminalId) });
const recording = (d: Data): TimelineLink => ({ pane: 'recordings', recording: str(d.path) });
const autoQa = (d: Data): TimelineLink => ({ pane: 'autoqa', runId: str(d.runId) });
const who = (a: Actor | null) => (a ? describeActor(a) : 'someone');

/** Every event type the timeline shows: its kind, its line, and the pane that shows it in full. */
const RULES: Record<string, Rule> = {
  SessionCreated: { kind: 'command', summary: (d) => `created the Session “${str(d.title)}”` },
  SessionStopped: { kind: 'command', summary: () => 'stopped the Session' },
  SessionResumed: { kind: 'command', summary: () => 'resumed the Session' },
  PromptQueued: {
    kind: 'command',
    summary: (d) => `queued a prompt: ${str(d.text)}`,
    link: transcript,
  },
  QueuedPromptEdited: { kind: 'command', summary: () => 'edited a queued prompt' },
  QueuedPromptDropped: { kind: 'command', summary: () => 'dropped a queued prompt' },
  TurnStarted: {
    kind: 'turn',
    summary: (d) => `turn ${str(d.turn)} started: ${str(d.text)}`,
    link: transcript,
  },
  TurnFinished: {
    kind: 'turn',
    summary: (d) => `turn ${str(d.turn)} ${str(d.status)}`,
    link: transcript,
  },
  AgentMessaged: {
    kind: 'turn',
    summary: (d) => `the agent said: ${str(d.text)}`,
    link: transcript,
  },
  AgentErrored: {
    kind: 'turn',
    summary: (d) => `error ${str(d.code)}: ${str(d.message)}`,
    link: transcript,
  },
  AgentToolCalled: { kind: 'tool_call', summary: (d) => `called ${str(d.name)}`, link: transcript },
  AgentToolReturned: {
    kind: 'tool_call',
    summary: (d) => (d.error === true ? 'a tool call failed' : 'a tool call returned'),
    link: transcript,
  },
  SessionTitleSet: {
    kind: 'marker',
    summary: (d) => `renamed the Session to “${str(d.title)}”`,
    link: transcript,
  },
  NotificationSent: {
    kind: 'marker',
    summary: (d) => `notified: ${str(d.text)}`,
    link: transcript,
  },
  PaneRequested: {
    kind: 'marker',
    summary: (d) => `asked to open the ${str(d.pane)} pane`,
    link: transcript,
  },
  PrAttached: {
    kind: 'marker',
    summary: (d) => `attached PR ${str(d.url)}`,
    link: () => ({ pane: 'prs' }),
  },
  VerificationOpened: {
    kind: 'marker',
    summary: (d) => `opened verification run: ${str(d.brief)}`,
    link: autoQa,
  },
  VerificationFinished: {
    kind: 'marker',
    summary: () => 'finished a verification run',
    link: autoQa,
  },
  ApprovalRequested: { kind: 'approval', summary: (d) => `asked for approval: ${str(d.summary)}` },
  ApprovalAnswered: {
    kind: 'approval',
    summary: (d, a) => `${d.allowed === true ? 'allowed' : 'denied'} by ${who(a)}`,
  },
  ApprovalExpired: { kind: 'approval', summary: () => 'the approval expired unanswered' },
  TerminalOpened: {
    kind: 'terminal',
    summary: (d) =>
      `opened a Terminal${Array.isArray(d.command) ? ` running ${d.command.join(' ')}` : ''}`,
    link: terminal,
  },
  TerminalExited: {
    kind: 'terminal',
    summary: (d) => `a Terminal exited with ${str(d.exitCode)}`,
    link: terminal,
  },
  TerminalOutputRecorded: {
    kind: 'terminal',
    summary: (d) => `Terminal output, ${str(d.length)} bytes from byte ${str(d.offset)}`,
    link: terminal,
  },
  TerminalTypedInto: {
    kind: 'terminal',
    summary: (_d, a) => `${who(a)} typed into a Terminal`,
    link: terminal,
  },
  RecordingFinished: {
    kind: 'recording',
    summary: (d) => `recorded a video: ${str(d.path)}`,
    link: recording,
  },
  RecordingNarrated: {
    kind: 'recording',
    summary: (d) => `narrated the video: ${str(d.path)}`,
    link: recording,
  },
  SnapshotTaken: {
    kind: 'snapshot',
    summary: (d) => `took Snapshot ${str(d.ordinal)}`,
    link: snapshot,
  },
  SessionReverted: {
    kind: 'snapshot',
    summary: (d) => `reverted to Snapshot ${str(d.ordinal)}`,
    link: snapshot,
  },
  TurnSnapshotTaken: {
    kind: 'snapshot',
    summary: (d) =>
      `snapshot of turn ${str(d.turn)} (${str(d.files)} files, ${str(d.newBytes)} new bytes)`,
    link: snapshot,
  },
  SessionRewound: {
    kind: 'snapshot',
    summary: (d) => `rewound to turn ${str(d.turn)}`,
    link: snapshot,
  },
  EgressRefused: {
    kind: 'egress',
    summary: (d) => `refused a connection to ${str(d.host)}:${str(d.port)}: ${str(d.reason)}`,
  },
  BoxProvisioned: { kind: 'box', summary: () => 'the box was provisioned' },
  BoxReady: { kind: 'box', summary: () => 'the box is ready' },
  BoxDisconnected: { kind: 'box', summary: () => 'the box disconnected' },
  BoxFrozen: { kind: 'box', summary: () => 'the box was frozen' },
  BoxThawed: { kind: 'box', summary: () => 'the box was thawed' },
  BoxDestroyed: { kind: 'box', summary: () => 'the box was destroyed' },
  BoxFailed: { kind: 'box', summary: (d) => `the box failed: ${str(d.reason)}` },
  BoxAdopted: { kind: 'box', summary: () => 'a restarted control plane adopted the box' },
  BoxProcessesLost: {
    kind: 'box',
    summary: (d) => `the box's processes were lost: ${str(d.reason)}`,
  },
};

export const TIMELINE_KINDS: readonly TimelineKind[] = [
  ...new Set(Object.values(RULES).map((r) => r.kind)),
];

const SUMMARY_MAX = 300;
const cut = (s: string) => (s.length <= SUMMARY_MAX ? s : `${s.slice(0, SUMMARY_MAX - 1)}…`);

function apply(event: RecordedEvent): DocumentChange<TimelineEntry>[] {
  const rule = RULES[event.type];
  const data = event.data as Data;
  // A session's own conversation has the session's id.
  const sessionId = str(data.sessionId ?? data.conversationId);
  if (!rule || !sessionId) return [];
  // An answer's actor is who answered (the event says it); any other's, the command's.
  const actor = (event.type === 'ApprovalAnswered' ? data.by : event.metadata?.actor) as Actor;
  const entry: TimelineEntry = {
    position: event.position,
    at: typeof data.at === 'string' ? data.at : event.recordedAt,
    kind: rule.kind,
    type: event.type,
    actor: actor ?? null,
    commandId: event.metadata?.commandId ?? null,
    summary: cut(rule.summary(data, actor ?? null)),
    turn: num(data.turn),
    link: rule.link ? rule.link(data) : null,
  };
  if (event.type === 'RecordingFinished' || event.type === 'RecordingNarrated') {
    entry.captions = (data.captions as RecordingCaption[] | undefined) ?? [];
  }
  if (event.type === 'TerminalOutputRecorded') {
    const from = num(data.offset) ?? 0;
    entry.terminalBytes = {
      terminalId: str(data.terminalId),
      from,
      to: from + (num(data.length) ?? 0),
    };
  }
  const id = docId(sessionId, String(event.position));
  return [{ id, partition: sessionId, order: event.position, doc: entry }];
}

/** One session's events across layers, in global order. Entries are never changed. */
export const timelineProjection: Projection<TimelineEntry> = {
  name: 'timeline',
  version: 1,
  handles: Object.keys(RULES),
  apply,
};

export const TIMELINE_PAGE_MAX = 1000;

/** `kinds`: only these; `actor`: a kind (`person`, `agent`, `system`, `api-key`) or `kind:id`. */
export interface TimelineFilter {
  kinds?: readonly TimelineKind[];
  actor?: string;
  after?: number;
  limit?: number;
}

/** `person:<id>`, `agent:<session id>`, `system:<id>`, `api-key:<key id>`. */
export function actorKey(actor: Actor): string {
  switch (actor.kind) {
    case 'person':
    case 'system':
      return `${actor.kind}:${actor.id}`;
    case 'agent':
      return `agent:${actor.sessionId}`;
    case 'api-key':
      return `api-key:${actor.keyId}`;
  }
}

function matches(entry: TimelineEntry, filter: TimelineFilter): boolean {
  if (filter.kinds && filter.kinds.length > 0 && !filter.kinds.includes(entry.kind)) return false;
  if (!filter.actor) return true;
  if (!entry.actor) return false;
  return entry.actor.kind === filter.actor || actorKey(entry.actor) === filter.actor;
}

const SCAN_BATCH = 1_000;

/** A session's timeline: entries after `after` (exclusive), oldest first, filtered. Read-only. */
export function timelineQueries(reader: ReadModelReader) {
  return {
    page(sessionId: string, filter: TimelineFilter = {}): TimelinePage {
      const limit = Math.min(Math.max(1, filter.limit ?? 100), TIMELINE_PAGE_MAX);
      const found: TimelineEntry[] = [];
      let after = filter.after;
      // Filters are applied while scanning, so a page is full unless the history ends.
      while (found.length <= limit) {
        const batch = reader.list(timelineProjection, {
          partition: sessionId,
          after,
          limit: SCAN_BATCH,
        });
        for (const { doc } of batch) if (matches(doc, filter)) found.push(doc);
        if (batch.length < SCAN_BATCH) break;
        after = batch[batch.length - 1].order;
      }
      const entries = found.slice(0, limit);
      const next = found.length > limit ? entries[entries.length - 1].position : null;
      return { entries, next };
    },
  };
}
