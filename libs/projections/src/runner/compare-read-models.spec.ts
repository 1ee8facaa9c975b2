import type { Projection } from '../projection';
import { SqliteReadModelStore } from '../store/sqlite-read-model-store';
import { compareReadModels } from './compare-read-models';

const notes: Projection<unknown> = { name: 'notes', version: 1, handles: [], apply: () => [] };
const other: Projection<unknown> = { ...notes, name: 'other' };

describe('compareReadModels', () => {
  let a: SqliteReadModelStore;
  let b: SqliteReadModelStore;
  const both = (fn: (s: SqliteReadModelStore) => void) => [a, b].forEach(fn);
  beforeEach(() => {
    a = SqliteReadModelStore.open({ path: ':memory:' });
    b = SqliteReadModelStore.open({ path: ':memory:' });
    both((s) => s.register([notes]));
    both((s) =>
      s.write('notes', [{ id: 'same', partition: 'p', order: 1, json: '{"x":1,"y":2}' }]),
    );
  });
  afterEach(() => both((s) => s.close()));

  it('finds two stores with the same documents equal, whatever the key order', () => {
    b.write('notes', [{ id: 'same', json: '{"y":2,"x":1}' }]);
    expect(compareReadModels(a, b)).toEqual({
      equal: true,
      projections: [expect.objectContaining({ projection: 'notes', equal: true, changed: [] })],
    });
  });

  it('reports documents missing on either side and documents that differ', () => {
    a.write('notes', [
      { id: 'a-only', json: '1' },
      { id: 'moved', partition: 'x', json: '1' },
    ]);
    b.write('notes', [
      { id: 'b-only', json: '1' },
      { id: 'moved', partition: 'y', json: '1' },
    ]);
    b.write('notes', [{ id: 'same', json: '{"x":1,"y":3}' }]);
    const [diff] = compareReadModels(a, b).projections;
    expect(diff).toMatchObject({
      equal: false,
      onlyInA: ['a-only'],
      onlyInB: ['b-only'],
      changed: ['moved', 'same'],
      counts: { onlyInA: 1, onlyInB: 1, changed: 2 },
    });
  });

  it('lists at most 20 ids of a kind but counts them all', () => {
    a.write(
      'notes',
      Array.from({ length: 25 }, (_, i) => ({ id: `n${i}`, json: '1' })),
    );
    const [diff] = compareReadModels(a, b).projections;
    expect([diff.onlyInA.length, diff.counts.onlyInA]).toEqual([20, 25]);
  });

  it('reports a checkpoint that differs, and a projection only one store has', () => {
    a.saveCheckpoint({ projection: 'notes', version: 1, position: 7, failure: null });
    a.register([other]);
    const result = compareReadModels(a, b);
    expect(result.equal).toBe(false);
    expect(result.projections.map((p) => [p.projection, p.equal])).toEqual([
      ['notes', false],
      ['other', false],
    ]);
    expect(result.projections[1].checkpoints.b).toBeNull();
  });

  it('walks ids in SQLite order, so ids outside the BMP pair up', () => {
    const ids = ['\u{1F600}', '\uFF21', 'a'];
    both((s) =>
      s.write(
        'notes',
        ids.map((id) => ({ id, json: '1' })),
      ),
    );
    expect(compareReadModels(a, b).equal).toBe(true);
  });

  it('compares a store with itself', () => {
    expect(compareReadModels(a, a).equal).toBe(true);
  });
});
