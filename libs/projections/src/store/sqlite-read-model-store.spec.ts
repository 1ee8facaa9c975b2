import type { Projection } from '../projection';
import { SqliteReadModelStore } from './sqlite-read-model-store';

type Note = { text: string };
const notes = (version = 1): Projection<Note> => ({
  name: 'notes',
  version,
  handles: [],
  apply: () => [],
});
const json = (text: string) => JSON.stringify({ text });

describe('SqliteReadModelStore', () => {
  let store: SqliteReadModelStore;
  beforeEach(() => {
    store = SqliteReadModelStore.open({ path: ':memory:' });
    store.register([notes()]);
  });
  afterEach(() => store.close());

  it('starts a new projection at position -1 with no documents', () => {
    expect(store.checkpoint('notes')).toEqual({
      projection: 'notes',
      version: 1,
      position: -1,
      failure: null,
    });
    expect(store.count('notes')).toBe(0);
  });

  it('upserts and deletes; an update without partition or order keeps them', () => {
    store.write('notes', [{ id: 'n1', partition: 'p', order: 7, json: json('one') }]);
    store.write('notes', [{ id: 'n1', json: json('uno') }]);
    expect(store.list(notes(), { partition: 'p' })).toEqual([
      { id: 'n1', partition: 'p', order: 7, doc: { text: 'uno' } },
    ]);
    store.write('notes', [{ id: 'n1', json: null }]);
    expect(store.get(notes(), 'n1')).toBeNull();
  });

  it('gives a new document without partition or order the defaults', () => {
    store.write('notes', [{ id: 'n1', json: json('one') }]);
    expect([...store.scan('notes')]).toEqual([
      { id: 'n1', partition: '', order: 0, doc: { text: 'one' } },
    ]);
  });

  it('lists one partition by order, after a cursor, up to a limit', () => {
    const writes = [5, 1, 3, 4, 2].map((n) => ({
      id: `n${n}`,
      partition: n % 2 === 0 ? 'even' : 'odd',
      order: n,
      json: json(String(n)),
    }));
    store.write('notes', writes);
    const ids = (after?: number, limit?: number) =>
      store.list(notes(), { partition: 'odd', after, limit }).map((d) => d.id);
    expect(ids()).toEqual(['n1', 'n3', 'n5']);
    expect(ids(1, 1)).toEqual(['n3']);
    expect(ids(5)).toEqual([]);
  });

  it('rebuilds a projection whose version changed: its documents go, its checkpoint resets', () => {
    store.write('notes', [{ id: 'n1', json: json('one') }]);
    store.saveCheckpoint({ projection: 'notes', version: 1, position: 9, failure: null });
    expect(store.register([notes(1)])[0].position).toBe(9);
    expect(store.register([notes(2)])[0]).toMatchObject({ version: 2, position: -1 });
    expect(store.get(notes(2), 'n1')).toBeNull();
  });

  it('keeps a failure with the checkpoint', () => {
    const failure = { position: 4, eventId: 'e4', eventType: 'X', message: 'boom' };
    store.saveCheckpoint({ projection: 'notes', version: 1, position: 3, failure });
    expect(store.checkpoints()).toEqual([
      { projection: 'notes', version: 1, position: 3, failure },
    ]);
  });

  it('rolls a transaction back when it throws', () => {
    expect(() =>
      store.transaction(() => {
        store.write('notes', [{ id: 'n1', json: json('one') }]);
        throw new Error('abort');
      }),
    ).toThrow('abort');
    expect(store.count('notes')).toBe(0);
  });

  it('refuses a table name that is not [a-z0-9_] and a read model never registered', () => {
    expect(() => store.register([{ ...notes(), name: 'x; DROP TABLE checkpoints' }])).toThrow(
      /bad projection name/,
    );
    expect(() => store.get({ ...notes(), name: 'other' }, 'n1')).toThrow(/register it first/);
  });
});
