import type { TranscriptEntry } from '@sessionboxer/contracts';
import {
  sidebarQueries,
  transcriptQueries,
  turnSnapshotQueries,
  type ReadModelReader,
} from '@sessionboxer/projections';

/** How much of the origin's conversation a fork's first prompt carries, at most (characters). */
export const FORK_CONTEXT_MAX = 32_000;
/** One prompt or reply, at most: a long one keeps its start and its end. */
export const FORK_ITEM_MAX = 4_000;
/** How many transcript entries are read for it, at most (the newest turns are kept). */
const ENTRIES_MAX = 20_000;

/** One turn of the conversation a fork continues: what was asked and what the agent said. */
export interface PriorTurn {
  prompt: string;
  replies: string[];
}

export interface ForkOrigin {
  title: string;
  /** The origin's turn the fork starts after. */
  turn: number;
}

/** A text cut in its middle, so both what it began with and how it ended are kept. */
function bounded(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const half = Math.floor((max - 20) / 2);
  const left = chars.length - 2 * half;
  return `${chars.slice(0, half).join('')}\n[… ${left} characters left out …]\n${chars.slice(-half).join('')}`;
}

function block(turn: PriorTurn, n: number): string {
  const lines = [`### Turn ${n}`, `The user: ${bounded(turn.prompt, FORK_ITEM_MAX)}`];
  for (const reply of turn.replies) lines.push(`You: ${bounded(reply, FORK_ITEM_MAX)}`);
  return lines.join('\n');
}

/**
 * What a fork's agent is told of the conversation it continues: the prompts and the agent's
 * replies, turn by turn, oldest first, at most `max` characters. When they do not fit, the
 * oldest turns are left out first and a line says how many. Pure, so a test reads exactly it.
 * Null when there is nothing to tell.
 */
export function forkContext(
  origin: ForkOrigin,
  turns: PriorTurn[],
  max = FORK_CONTEXT_MAX,
): string | null {
  if (turns.length === 0) return null;
  const head = `This session is a fork of the session “${origin.title}”, from the end of its turn ${origin.turn}: its workspace is as that turn left it. Its agent's conversation up to there follows; you continue it (you have no other memory of it). Tool calls and their results are left out.`;
  const kept: string[] = [];
  let size = head.length;
  for (let i = turns.length - 1; i >= 0; i--) {
    const text = block(turns[i], i + 1);
    if (size + text.length + 2 > max && kept.length > 0) break;
    kept.unshift(text);
    size += text.length + 2;
  }
  const left = turns.length - kept.length;
  const cutLine =
    left > 0
      ? [
          `[The ${left === 1 ? 'first turn is' : `first ${left} turns are`} left out here, to keep this short.]`,
        ]
      : [];
  return [head, ...cutLine, ...kept, '--- End of the earlier conversation. ---'].join('\n\n');
}

/** The turns in transcript entries (a fork's inherited ones), in their order. */
export function priorTurns(entries: TranscriptEntry[]): PriorTurn[] {
  const turns: PriorTurn[] = [];
  const byKey = new Map<string, PriorTurn>();
  for (const entry of entries) {
    if (entry.kind !== 'event') continue;
    const { event, conversationId } = entry;
    const key = `${conversationId}/${event.turn}`;
    if (event.type === 'prompt') {
      const turn = { prompt: event.text, replies: [] };
      byKey.set(key, turn);
      turns.push(turn);
    } else if (event.type === 'message') {
      byKey.get(key)?.replies.push(event.text);
    }
  }
  return turns;
}

/**
 * The context a session's first prompt carries when the session is a fork from a turn (its
 * transcript then starts with the origin's conversation up to that turn, and so on up the
 * forks); null for any other session, and for a fork from a snapshot taken by hand.
 */
export function forkContextOf(reader: ReadModelReader, sessionId: string): string | null {
  const from = sidebarQueries(reader).get(sessionId)?.forkedFrom ?? null;
  if (!from) return null;
  const snapshot = turnSnapshotQueries(reader).byId(from.sessionId, from.snapshotId);
  if (!snapshot) return null;
  const title = sidebarQueries(reader).get(from.sessionId)?.title ?? from.sessionId;
  const entries: TranscriptEntry[] = [];
  const transcript = transcriptQueries(reader);
  let after: number | undefined;
  for (;;) {
    const page = transcript.page(sessionId, { after, limit: 500 });
    entries.push(...page.entries);
    if (page.next === null) break;
    after = page.next;
    if (entries.length > ENTRIES_MAX) entries.splice(0, entries.length - ENTRIES_MAX);
  }
  return forkContext({ title, turn: snapshot.turn }, priorTurns(entries));
}
