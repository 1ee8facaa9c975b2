import type { SessionEvent } from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import type { ProjectionCursor } from './runner/apply-events';
import { notificationSent } from '../../domain/test/session-activity-fixtures';
import { sessionCreated, sessionTitleSet } from '../../domain/test/session-fixtures';
import { ConversationScript, sessionOwner } from '../test/conversation-fixtures';
import { recorded } from '../test/recorded-events';
import { applyEvents } from './runner/apply-events';
import { compareReadModels } from './runner/compare-read-models';
import { SEARCH_TEXT_MAX, searchProjection, searchQueries } from './search.projection';
import { SqliteReadModelStore } from './store/sqlite-read-model-store';

const AT = '2026-01-02T03:04:05.000Z';
const archived = (sessionId: string): SessionEvent => ({
  type: 'SessionArchived',
  data: { sessionId, at: AT },
});
const unarchived = (sessionId: string): SessionEvent => ({
  type: 'SessionUnarchived',
  data: { sessionId, at: AT },
});
const deleted = (sessionId: string): SessionEvent => ({
  type: 'SessionDeleted',
  data: { sessionId, at: AT },
});

/** Two sessions: s1 talks about penguins, s2 about volcanoes. */
function history() {
  const c1 = new ConversationScript('c1', sessionOwner('s1'));
  const c2 = new ConversationScript('c2', sessionOwner('s2'));
  const sandbox = new ConversationScript('c3', { kind: 'sandbox', sandboxId: 'x1' });
  return [
    sessionCreated({ sessionId: 's1', title: 'Bird notes' }),
    sessionCreated({ sessionId: 's2', title: 'Geology' }),
    c1.started(1),
    c1.turn(2, 'p1', 'Tell me about penguins'),
    c1.message(3, 'Penguins are flightless birds.'),
    c1.toolCall(4, 't1', 'Bash', { command: 'grep penguins' }),
    c1.toolResult(5, 't1', 'penguins penguins penguins'),
    c2.started(6),
    c2.turn(7, 'p2', 'And volcanoes?'),
    c2.message(8, 'Volcanoes vent magma.'),
    notificationSent('s2', 'n1', 'The volcano report is ready'),
    notificationSent('s2', 'n2', 'PR volcano merged', 'pr'),
    sandbox.started(9),
    sandbox.turn(10, 'p3', 'penguins in a sandbox'),
  ];
}

function storeWith(events: readonly RecordedEvent[], oneByOne = false): SqliteReadModelStore {
  const store = SqliteReadModelStore.open({ path: ':memory:' });
  let cursors: ProjectionCursor[] = store
    .register([searchProjection])
    .map((checkpoint) => ({ projection: searchProjection, checkpoint }));
  for (const batch of oneByOne ? events.map((e) => [e]) : [events]) {
    cursors = applyEvents(store, cursors, batch);
  }
  expect(cursors[0].checkpoint.failure).toBeNull();
  return store;
}

const find = (store: SqliteReadModelStore, q: string, includeArchived = false) =>
  searchQueries(store).search({ q, includeArchived });

describe('the search read model', () => {
  let store: SqliteReadModelStore;
  afterEach(() => store.close());

  it('finds prompts, replies and the agent’s notes, never tool calls, outputs or sandboxes', () => {
    store = storeWith(recorded(history()));
    const penguins = find(store, 'penguins');
    expect(penguins.map((r) => `${r.sessionId}:${r.kind}`).sort()).toEqual([
      's1:prompt',
      's1:reply',
    ]);
    expect(penguins.every((r) => r.title === 'Bird notes' && r.archived === false)).toBe(true);
    expect(penguins.map((r) => r.position).sort()).toEqual([4, 5]);
    expect(penguins.find((r) => r.kind === 'reply')).toMatchObject({
      entryId: 'event-5',
      at: '2026-01-02T03:04:08.000Z',
      snippet: [
        { text: 'Penguins', match: true },
        { text: ' are flightless birds.', match: false },
      ],
    });
    const volcano = find(store, 'volcano');
    expect(volcano.map((r) => r.kind).sort()).toEqual(['note', 'prompt', 'reply']);
    expect(volcano.every((r) => r.sessionId === 's2')).toBe(true);
    expect(find(store, 'grep')).toEqual([]);
    expect(find(store, 'merged')).toEqual([]);
  });

  it('finds a session by its title, a rename at once (old title gone) in every hit', () => {
    const events = [...history(), sessionTitleSet('s1', 'Antarctic fauna', 'Bird notes')];
    store = storeWith(recorded(events));
    expect(find(store, 'bird').map((r) => r.kind)).toEqual(['reply']);
    const renamed = find(store, 'antarctic');
    expect(renamed).toEqual([
      {
        sessionId: 's1',
        title: 'Antarctic fauna',
        archived: false,
        kind: 'title',
        snippet: [
          { text: 'Antarctic', match: true },
          { text: ' fauna', match: false },
        ],
        at: AT,
      },
    ]);
    expect(find(store, 'penguins').every((r) => r.title === 'Antarctic fauna')).toBe(true);
  });

  it('ranks a title above a word deep in a reply', () => {
    const c = new ConversationScript('c9', sessionOwner('s9'));
    const long = `${'filler words here. '.repeat(30)}geology mentioned once`;
    store = storeWith(
      recorded([
        ...history(),
        sessionCreated({ sessionId: 's9', title: 'Other' }),
        c.started(20),
        c.turn(21, 'p9', 'hi'),
        c.message(22, long),
      ]),
    );
    expect(find(store, 'geology').map((r) => [r.sessionId, r.kind])).toEqual([
      ['s2', 'title'],
      ['s9', 'reply'],
    ]);
  });

  it('keeps an archived session’s entries out unless asked, marked archived, and back on unarchive', () => {
    store = storeWith(recorded([...history(), archived('s2')]));
    expect(find(store, 'volcano')).toEqual([]);
    const all = find(store, 'volcano', true);
    expect(all).toHaveLength(3);
    expect(all.every((r) => r.archived)).toBe(true);
    expect(find(store, 'geology', true)[0]).toMatchObject({ kind: 'title', archived: true });
    store.close();
    store = storeWith(recorded([...history(), archived('s2'), unarchived('s2')]));
    expect(find(store, 'volcano').every((r) => !r.archived)).toBe(true);
    expect(find(store, 'volcano')).toHaveLength(3);
  });

  it('drops a deleted session’s title and entries, and indexes nothing said after', () => {
    const c1 = new ConversationScript('c1', sessionOwner('s1'));
    const later = [c1.turn(30, 'p9', 'penguins again'), c1.message(31, 'penguins!')];
    // The script numbers seq from 1 again: a stand-in for a conversation's last words.
    store = storeWith(recorded([...history(), deleted('s1'), ...later]));
    expect(find(store, 'penguins', true)).toEqual([]);
    expect(find(store, 'bird', true)).toEqual([]);
    expect(find(store, 'volcano')).toHaveLength(3);
    expect(store.count('search')).toBe(1 + 3 + 2);
  });

  it('cuts a long text and strips control characters (the snippet’s marks among them)', () => {
    const c = new ConversationScript('c1', sessionOwner('s1'));
    const text = `start\u0002mark\u0003 ${'x'.repeat(SEARCH_TEXT_MAX)} tailword`;
    store = storeWith(
      recorded([sessionCreated({ sessionId: 's1', title: 'T' }), c.started(1), c.message(2, text)]),
    );
    expect(find(store, 'tailword')).toEqual([]);
    const [hit] = find(store, 'mark');
    const shown = hit.snippet.map((p) => p.text).join('');
    expect(shown.includes('\u0002') || shown.includes('\u0003')).toBe(false);
    expect(hit.snippet.filter((p) => p.match)).toEqual([{ text: 'mark', match: true }]);
  });

  it('gives the same read model and answers rebuilt in one batch as applied event by event', () => {
    const events = recorded([
      ...history(),
      sessionTitleSet('s1', 'Penguin facts', 'Bird notes'),
      archived('s2'),
      deleted('s1'),
      sessionCreated({ sessionId: 's3', title: 'Penguin return' }),
    ]);
    store = storeWith(events, true);
    const rebuilt = storeWith(events);
    try {
      expect(compareReadModels(store, rebuilt).equal).toBe(true);
      for (const q of ['penguin', 'volcano', 'geology', 'magma vent']) {
        expect(find(rebuilt, q, true)).toEqual(find(store, q, true));
      }
      expect(find(rebuilt, 'penguin', true).map((r) => r.sessionId)).toEqual(['s3']);
    } finally {
      rebuilt.close();
    }
  });
});
