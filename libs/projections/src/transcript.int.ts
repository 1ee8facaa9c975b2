import { join } from 'node:path';
import type { Actor } from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import { sessionCreated } from '../../domain/test/session-fixtures';
import { notificationSent, snapshotTaken } from '../../domain/test/session-activity-fixtures';
import { conversationScript, second, sessionOwner } from '../test/conversation-fixtures';
import { by, recorded } from '../test/recorded-events';
import { useTempDir } from '../test/temp-files';
import { applyEvents, type ProjectionCursor } from './runner/apply-events';
import { allProjections } from './session-projections';
import { SqliteReadModelStore } from './store/sqlite-read-model-store';
import { lastPosition, transcriptQueries, type TranscriptEntry } from './transcript';

const AGENT: Actor = { kind: 'agent', sessionId: 's1' };

/**
 * Session s1 with two conversations (c1, c2) whose events interleave with its markers, and
 * session s2 whose conversation is named `s1`: its events belong to s2's transcript only.
 */
function history(): RecordedEvent[] {
  const c1 = conversationScript('c1', sessionOwner('s1'));
  const c2 = conversationScript('c2', sessionOwner('s1'));
  const x = conversationScript('s1', sessionOwner('s2'));
  return recorded([
    sessionCreated({ sessionId: 's1' }), // 1 marker
    c1.started(1), // 2
    c1.turn(2, 'p1', 'Hello'), // 3 c1#1
    c1.message(3, 'Hi'), // 4 c1#2
    c1.queued(4, 'p2', 'Next'), // 5 marker
    by(AGENT, snapshotTaken('s1', 'snap-1', 1)), // 6 marker
    c1.toolCall(5, 't1', 'Bash', { command: 'ls' }), // 7 c1#3
    sessionCreated({ sessionId: 's2' }), // 8 (s2)
    x.started(6), // 9
    x.turn(7, 'q1', 'Elsewhere'), // 10 (s2)
    c1.finished(8), // 11 c1#4
    c1.turn(9, 'p2', 'Next'), // 12 c1#5
    c2.started(10), // 13
    c2.turn(11, 'p3', 'Other'), // 14 c2#1
    by(AGENT, notificationSent('s1', 'n1', 'Done')), // 15 marker
    c1.message(12, 'Working'), // 16 c1#6
    c2.message(13, 'Sure'), // 17 c2#2
  ]);
}

/** What a test compares: position, then the marker's text or the event's conversation, type, seq. */
function shown(entry: TranscriptEntry): [number, string] {
  if (entry.kind === 'marker') return [entry.position, entry.marker.text];
  const { type, seq } = entry.event;
  return [entry.position, `${entry.conversationId} ${type} ${seq}`];
}

const S1: [number, string][] = [
  [1, 'created the Session'],
  [3, 'c1 prompt 1'],
  [4, 'c1 message 2'],
  [5, 'queued a message (“Next”)'],
  [6, 'took Snapshot 1'],
  [7, 'c1 tool_call 3'],
  [11, 'c1 turn_finished 4'],
  [12, 'c1 prompt 5'],
  [14, 'c2 prompt 1'],
  [15, 'notified you: Done'],
  [16, 'c1 message 6'],
  [17, 'c2 message 2'],
];

describe('a session transcript over a real SQLite read-model store', () => {
  const dir = useTempDir();
  let store: SqliteReadModelStore;
  let cursors: ProjectionCursor[];
  /** Applies events as the runner does: in batches, each one transaction. */
  const project = (events: readonly RecordedEvent[], batchSize = 4) => {
    for (let i = 0; i < events.length; i += batchSize) {
      cursors = applyEvents(store, cursors, events.slice(i, i + batchSize));
    }
    expect(cursors.map((c) => c.checkpoint.failure)).toEqual(cursors.map(() => null));
  };
  const transcript = () => transcriptQueries(store);

  beforeEach(() => {
    store = SqliteReadModelStore.open({ path: join(dir(), 'read.db') });
    cursors = store.register(allProjections).map((checkpoint, i) => ({
      projection: allProjections[i],
      checkpoint,
    }));
  });
  afterEach(() => store.close());

  it('interleaves the markers and every owned conversation’s events by position', () => {
    project(history());
    const page = transcript().page('s1');
    expect(page.entries.map(shown)).toEqual(S1);
    expect(page.next).toBeNull();
    expect(transcript().page('s2').entries.map(shown)).toEqual([
      [8, 'created the Session'],
      [10, 's1 prompt 1'],
    ]);
  });

  it('gives each entry its time and what it is', () => {
    project(history());
    const [marker, event] = transcript().page('s1', { limit: 2 }).entries;
    expect(marker).toEqual({
      kind: 'marker',
      position: 1,
      at: '2026-01-02T03:04:05.000Z',
      marker: expect.objectContaining({ kind: 'session-created', sessionId: 's1' }),
    });
    expect(event).toEqual({
      kind: 'event',
      position: 3,
      at: second(2),
      conversationId: 'c1',
      event: expect.objectContaining({ type: 'prompt', seq: 1, text: 'Hello', turn: 1 }),
    });
  });

  it('pages across the sources with a `next` cursor, null after the last page', () => {
    project(history());
    const pages = [];
    let after: number | undefined;
    for (let n = 0; n < 10; n++) {
      const page = transcript().page('s1', { after, limit: 4 });
      pages.push({ shown: page.entries.map(shown), next: page.next });
      if (page.next === null) break;
      after = page.next;
    }
    expect(pages).toEqual([
      { shown: S1.slice(0, 4), next: 5 },
      { shown: S1.slice(4, 8), next: 12 },
      { shown: S1.slice(8), next: null },
    ]);
    expect(transcript().page('s1', { after: 6, limit: 2 })).toEqual({
      entries: [
        expect.objectContaining({ position: 7 }),
        expect.objectContaining({ position: 11 }),
      ],
      next: 11,
    });
  });

  it('keeps the limit within 1 and 500', () => {
    const c = conversationScript('c1', sessionOwner('s1'));
    const start = [c.started(), c.turn(0, 'p1', 'Go')];
    const many = Array.from({ length: 501 }, (_, i) => c.message(i, `m${i}`));
    project(recorded([...start, ...many]), 1_000);
    expect(transcript().page('s1', { limit: 0 }).entries.map(shown)).toEqual([[2, 'c1 prompt 1']]);
    const capped = transcript().page('s1', { limit: 10_000 });
    expect([capped.entries.length, capped.next]).toEqual([500, 501]);
  });

  it('feeds a live view: each batch’s new entries after the last one sent', () => {
    const events = history();
    project(events.slice(0, 6));
    const first = transcript().page('s1');
    expect(first.entries.map(shown)).toEqual(S1.slice(0, 5));
    const sent = lastPosition(first);
    expect(sent).toBe(6);
    project(events.slice(6, 10));
    const quiet = transcript().page('s1', { after: sent });
    expect(quiet.entries.map(shown)).toEqual([[7, 'c1 tool_call 3']]);
    const nothing = transcript().page('s1', { after: lastPosition(quiet, sent) });
    expect(nothing).toEqual({ entries: [], next: null });
    expect(lastPosition(nothing, 7)).toBe(7);
    project(events.slice(10));
    expect(transcript().page('s1', { after: 7 }).entries.map(shown)).toEqual(S1.slice(6));
  });
});
