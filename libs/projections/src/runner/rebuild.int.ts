import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteEventStore } from '@sessionboxer/event-store/sqlite';
import { countingProjection, ticks } from '../../test/counting-projection';
import { useTempDir } from '../../test/temp-files';
import { SqliteReadModelStore } from '../store/sqlite-read-model-store';
import { rebuildReadModels, type RebuildProgress } from './rebuild';

describe('rebuildReadModels (real SQLite event store)', () => {
  const dir = useTempDir();
  let events: SqliteEventStore;
  beforeEach(async () => {
    events = SqliteEventStore.open({ path: join(dir(), 'events.db'), synchronous: 'NORMAL' });
    await events.appendToStream('tick-1', ticks(250));
  });
  afterEach(() => events.close());

  const counted = (path: string) => {
    const store = SqliteReadModelStore.open({ path });
    try {
      return store.get(countingProjection(), 'count');
    } finally {
      store.close();
    }
  };

  it('builds from 0 to the head, in batches, reporting progress', async () => {
    const progress: RebuildProgress[] = [];
    const path = join(dir(), 'rebuilt.db');
    const projections = [countingProjection()];
    const onProgress = (p: RebuildProgress) => progress.push(p);
    const result = await rebuildReadModels({
      eventStore: events,
      path,
      projections,
      batchSize: 100,
      onProgress,
    });
    expect(result).toMatchObject({
      eventsDone: 250,
      checkpoints: [{ position: 250, failure: null }],
    });
    expect(progress).toEqual(
      [100, 200, 250].map((n) => ({ eventsDone: n, position: n, headPosition: 250 })),
    );
    expect(counted(path)).toEqual({ n: 250, last: 250 });
  });

  it('stops at a point in time', async () => {
    const path = join(dir(), 'at-120.db');
    await rebuildReadModels({
      eventStore: events,
      path,
      projections: [countingProjection()],
      toPosition: 120,
    });
    expect(counted(path)).toEqual({ n: 120, last: 120 });
  });

  it('reports a projection that cannot apply an event, and builds the others', async () => {
    const path = join(dir(), 'failing.db');
    const projections = [countingProjection({ failOn: 30 }), countingProjection({ name: 'ok' })];
    const result = await rebuildReadModels({ eventStore: events, path, projections });
    expect(result.checkpoints.map((c) => [c.projection, c.position, c.failure?.position])).toEqual([
      ['counter', 29, 30],
      ['ok', 250, undefined],
    ]);
  });

  it('refuses a file that already exists', async () => {
    const path = join(dir(), 'old.db');
    writeFileSync(path, '');
    await expect(rebuildReadModels({ eventStore: events, path, projections: [] })).rejects.toThrow(
      /exists; a rebuild writes a fresh read-model file/,
    );
  });
});
