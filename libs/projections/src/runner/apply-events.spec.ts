import type { RecordedEvent } from '@sessionboxer/event-store';
import type { Projection } from '../projection';
import { SqliteReadModelStore } from '../store/sqlite-read-model-store';
import { applyEvents, type ProjectionCursor } from './apply-events';

/** Counts the events it applies, so applying one twice shows. */
const counter = (name: string, failOn?: number): Projection<{ n: number }> => ({
  name,
  version: 1,
  handles: ['Ticked'],
  apply: (event, get) => {
    if (event.position === failOn) throw new Error(`cannot take ${event.position}`);
    return [{ id: 'count', doc: { n: (get('count')?.n ?? 0) + 1 } }];
  },
});

const event = (position: number, type = 'Ticked'): RecordedEvent => ({
  id: `e${position}`,
  type,
  data: {},
  metadata: {
    commandId: 'c',
    correlationId: 'c',
    causationId: 'c',
    actor: { kind: 'system', id: 'test' },
    at: 'now',
  },
  streamName: 'tick-1',
  revision: position - 1,
  position,
  recordedAt: 'now',
});
const events = (...positions: number[]) => positions.map((p) => event(p));

describe('applyEvents', () => {
  let store: SqliteReadModelStore;
  const cursorsOf = (projections: Projection<{ n: number }>[]): ProjectionCursor[] =>
    store
      .register(projections)
      .map((checkpoint, i) => ({ projection: projections[i], checkpoint }));
  const count = (p: Projection<{ n: number }>) => store.get(p, 'count')?.n;

  beforeEach(() => {
    store = SqliteReadModelStore.open({ path: ':memory:' });
  });
  afterEach(() => store.close());

  it('applies each event once: events at or before a checkpoint are skipped', () => {
    const a = counter('a');
    let cursors = applyEvents(store, cursorsOf([a]), events(1, 2, 3));
    cursors = applyEvents(store, cursors, events(2, 3, 4));
    expect(count(a)).toBe(4);
    expect(cursors[0].checkpoint.position).toBe(4);
    expect(store.checkpoint('a')?.position).toBe(4);
  });

  it('advances the checkpoint over events the projection does not handle', () => {
    const a = counter('a');
    const [cursor] = applyEvents(store, cursorsOf([a]), [event(1), event(2, 'Other')]);
    expect([count(a), cursor.checkpoint.position]).toEqual([1, 2]);
  });

  it('stops a projection on the event it throws on, keeping its checkpoint before it', () => {
    const bad = counter('bad', 3);
    const good = counter('good');
    const cursors = applyEvents(store, cursorsOf([bad, good]), events(1, 2, 3, 4));
    expect(store.checkpoint('bad')).toMatchObject({
      position: 2,
      failure: { position: 3, eventId: 'e3', eventType: 'Ticked', message: 'cannot take 3' },
    });
    expect([count(bad), count(good), store.checkpoint('good')?.position]).toEqual([2, 4, 4]);
    applyEvents(store, cursors, events(5));
    expect([count(bad), count(good)]).toEqual([2, 5]);
  });

  it('fails a projection whose document is not JSON, writing nothing of that event', () => {
    const odd: Projection<unknown> = {
      ...counter('odd'),
      apply: () => [
        { id: 'ok', doc: 1 },
        { id: 'x', doc: () => 1 },
      ],
    };
    const [cursor] = applyEvents(store, cursorsOf([odd as Projection<{ n: number }>]), events(1));
    expect(cursor.checkpoint.failure?.message).toMatch(/must be JSON/);
    expect(store.count('odd')).toBe(0);
  });

  it('rolls the whole batch back, checkpoints included, when SQLite refuses a write', () => {
    const a = counter('a');
    const b = counter('b');
    const cursors = cursorsOf([a, b]);
    const write = store.write.bind(store);
    jest.spyOn(store, 'write').mockImplementation((name, changes) => {
      if (name === 'b') throw new Error('SQLITE_FULL: database or disk is full');
      write(name, changes);
    });
    expect(() => applyEvents(store, cursors, events(1, 2))).toThrow(/SQLITE_FULL/);
    expect([count(a), store.checkpoint('a')?.position]).toEqual([undefined, -1]);
  });

  it('fails a projection that returns a change without a usable id or order', () => {
    const bad: Projection<{ n: number }> = {
      ...counter('bad'),
      apply: () => [{ id: '', doc: { n: 1 } }],
    };
    const unordered: Projection<{ n: number }> = {
      ...counter('unordered'),
      apply: () => [{ id: 'x', order: Number.NaN, doc: { n: 1 } }],
    };
    const cursors = applyEvents(store, cursorsOf([bad, unordered]), events(1));
    expect(cursors.map((c) => c.checkpoint.failure?.message)).toEqual([
      expect.stringMatching(/id must be a non-empty string/),
      expect.stringMatching(/order must be a finite number/),
    ]);
  });
});
