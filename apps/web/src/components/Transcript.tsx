import { memo, useEffect, useLayoutEffect, useMemo, useRef, type UIEvent } from 'react';
import { useTitleOf } from '../hooks';
import { useStore } from '../store';
import type { Approval, SpecConversationEvent, TranscriptEntry } from '@sessionboxer/contracts';
import { ApprovalCard } from './ApprovalCard';
import { Marker } from './Marker';
import { PendingTerminalCard } from './terminals/PendingTerminalCard';
import { TranscriptEvent } from './TranscriptEvent';
import { REVEAL_EVENT, VIRTUAL_FROM, VirtualEntries } from './transcript/VirtualEntries';

interface Props {
  sessionId: string;
  entries: TranscriptEntry[];
  /** The first load is still on its way: an empty list is not an empty transcript yet. */
  loading: boolean;
  approvals: Approval[];
  provider: string;
}

/** How near the bottom (px) still counts as following the conversation. */
const FOLLOW_SLACK = 80;

function entryClass(entry: TranscriptEntry): string {
  return entry.kind === 'marker' ? 'entry entry-marker' : `entry entry-${entry.event.type}`;
}

type ToolResult = Extract<SpecConversationEvent, { type: 'tool_result' }>;

interface ToolPairs {
  /** A call's result, by the call's position. */
  resultOf: Map<number, ToolResult>;
  /** The positions of results shown in their call's row. */
  merged: Set<number>;
}

/**
 * A result names its call by id, and harnesses reuse ids across turns: each result goes with
 * the last call with its id before it (by the result's position), and shows in its row.
 */
function useToolPairs(entries: TranscriptEntry[]): ToolPairs {
  return useMemo(() => {
    const calls = new Map<string, number>();
    const resultOf = new Map<number, ToolResult>();
    const merged = new Set<number>();
    for (const e of entries) {
      if (e.kind !== 'event') continue;
      if (e.event.type === 'tool_call') calls.set(e.event.id, e.position);
      if (e.event.type !== 'tool_result') continue;
      const call = calls.get(e.event.id);
      if (call === undefined || resultOf.has(call)) continue;
      resultOf.set(call, e.event);
      merged.add(e.position);
    }
    return { resultOf, merged };
  }, [entries]);
}

/**
 * Keeps the box scrolled to its end as entries come, while the reader is at the bottom. A
 * virtualized list follows by itself (its rows' heights are known only once drawn): `virtual`.
 */
function useFollowBottom(count: number, virtual: boolean) {
  const box = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  useLayoutEffect(() => {
    const el = box.current;
    if (el && following.current && !virtual) el.scrollTop = el.scrollHeight;
  }, [count, virtual]);
  const onScroll = (e: UIEvent<HTMLDivElement>) => {
    const el = e.currentTarget;
    following.current = el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_SLACK;
  };
  return { box, following, onScroll };
}

/** The timeline's "show in transcript": an entry drawn in the page scrolls into view. */
function useRevealDrawn() {
  useEffect(() => {
    const reveal = (e: Event) => {
      const position = (e as CustomEvent<number>).detail;
      document.getElementById(`entry-${position}`)?.scrollIntoView({ block: 'center' });
    };
    window.addEventListener(REVEAL_EVENT, reveal);
    return () => window.removeEventListener(REVEAL_EVENT, reveal);
  }, []);
}

interface EntryProps {
  entry: TranscriptEntry;
  sessionId: string;
  approvals: Approval[];
  provider: string;
  result: ToolResult | undefined;
  titleOf: (sessionId: string) => string | null;
  username: string | null;
}

/** One entry: an event of the conversation, an approval card, or another marker. */
const Entry = memo(function Entry({
  entry,
  sessionId,
  approvals,
  provider,
  result,
  titleOf,
  username,
}: EntryProps) {
  if (entry.kind === 'event')
    return (
      <TranscriptEvent
        sessionId={sessionId}
        event={entry.event}
        provider={provider}
        result={result}
        titleOf={titleOf}
        username={username}
      />
    );
  const { marker } = entry;
  if (marker.kind === 'approval-requested' && marker.link && 'approvalId' in marker.link) {
    const id = marker.link.approvalId;
    const approval = approvals.find((a) => a.id === id);
    if (approval)
      return <ApprovalCard sessionId={sessionId} approval={approval} provider={provider} />;
  }
  if (marker.kind === 'ssh-terminal-requested' && marker.link && 'sshTerminalId' in marker.link) {
    const card = <PendingTerminalCard terminalId={marker.link.sshTerminalId} />;
    return (
      <>
        <Marker marker={marker} titleOf={titleOf} />
        {card}
      </>
    );
  }
  return <Marker marker={marker} titleOf={titleOf} />;
});

/**
 * The conversation and the markers in the order they happened (by position). It keeps
 * scrolled to the newest entry while the reader is at the bottom.
 */
export const Transcript = memo(function Transcript({
  sessionId,
  entries,
  loading,
  approvals,
  provider,
}: Props) {
  const titleOf = useTitleOf();
  const username = useStore((s) => s.username);
  const { resultOf, merged } = useToolPairs(entries);
  const rows = useMemo(() => entries.filter((e) => !merged.has(e.position)), [entries, merged]);
  const virtual = rows.length >= VIRTUAL_FROM;
  const { box, following, onScroll } = useFollowBottom(entries.length, virtual);
  useRevealDrawn();
  const row = (entry: TranscriptEntry) => (
    <Entry entry={entry} result={resultOf.get(entry.position)} {...shared} />
  );
  const shared = { sessionId, approvals, provider, titleOf, username };
  return (
    <div
      role="log"
      aria-label="Transcript"
      className="transcript"
      tabIndex={0}
      ref={box}
      onScroll={onScroll}
      aria-busy={loading && entries.length === 0}
    >
      {entries.length === 0 && loading ? (
        <p role="status" className="muted">
          Loading the transcript…
        </p>
      ) : entries.length === 0 ? (
        <p className="muted">Nothing here yet: send the agent a prompt.</p>
      ) : virtual ? (
        <VirtualEntries
          rows={rows}
          box={box}
          following={following}
          loading={loading}
          className={entryClass}
          render={row}
        />
      ) : (
        <ol className="entries">
          {rows.map((entry) => (
            <li key={entry.position} id={`entry-${entry.position}`} className={entryClass(entry)}>
              {row(entry)}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
});
