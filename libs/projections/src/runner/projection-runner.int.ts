import { join } from 'node:path';
import { SqliteEventStore } from '@sessionboxer/event-store/sqlite';
import { countingProjection, ticks } from '../../test/counting-projection';
import { useTempDir } from '../../test/temp-files';
import type { AnyProjection } from '../projection';
import { SqliteReadModelStore } from '../store/sqlite-read-model-store';
import { ReadModelLagError } from './position-waiters';
import { ProjectionRunner, type RunnerLogger } from './projection-runner';

describe('ProjectionRunner (real SQLite event store)', () => {
  const dir = useTempDir();
  let events: SqliteEventStore;
  let store: SqliteReadModelStore;
  let runner: ProjectionRunner | undefined;
  const logged: Array<[string, Record<string, unknown>]> = [];
  const logger: RunnerLogger = { error: (message, context) => logged.push([message, context]) };

  beforeEach(() => {
    events = SqliteEventStore.open({ path: join(dir(), 'events.db'), synchronous: 'NORMAL' });
    store = SqliteReadModelStore.open({ path: join(dir(), 'read.db') });
    logged.length = 0;
  });
  afterEach(async () => {
    await runner?.stop();
    runner = undefined;
    store.close();
    await events.close();
  });

  const start = async (projections: AnyProjection[], batchSize?: number) => {
    runner = new ProjectionRunner({ eventStore: events, store, projections, logger, batchSize });
    await runner.start();
    return runner;
  };
  const append = async (count: number) =>
    (await events.appendToStream('tick-1', ticks(count))).position;
  const count = (name = 'counter') => store.get(countingProjection({ name }), 'count')?.n ?? 0;

  it('catches up on history, then follows live appends (read-your-writes)', async () => {
    await append(30);
    const r = await start([countingProjection()]);
    for (let i = 0; i < 5; i++) {
      const position = await append(7);
      await r.waitForPosition(position, 2000);
      expect(count()).toBe(30 + 7 * (i + 1));
    }
  });

  it('applies a catch-up in batches of up to batchSize events, one transaction each', async () => {
    await append(2500);
    const transactions = jest.spyOn(store, 'transaction');
    const r = await start([countingProjection()], 1000);
    await r.waitForPosition(await events.headPosition(), 5000);
    expect(count()).toBe(2500);
    // one to register, then 1000 + 1000 + 500
    expect(transactions.mock.calls.length).toBeLessThanOrEqual(1 + 4);
  });

  it('rejects a wait that times out, saying where each read model is', async () => {
    const r = await start([countingProjection()]);
    await r.waitForPosition(await append(3), 2000);
    const wait = r.waitForPosition(99, 50);
    await expect(wait).rejects.toThrow(/did not reach position 99 within 50 ms \(counter at 3\)/);
    await expect(wait).rejects.toMatchObject({ reason: 'timeout' });
  });

  it('stops only the projection that throws, logs it, and retries it after a restart', async () => {
    await append(10);
    const r = await start([countingProjection({ failOn: 6 }), countingProjection({ name: 'ok' })]);
    const wait = r.waitForPosition(10, 2000);
    await expect(wait).rejects.toBeInstanceOf(ReadModelLagError);
    await expect(wait).rejects.toThrow(/counter will not reach position 10: it stopped at 5/);
    await r.waitForPosition(5, 10);
    expect(logged).toEqual([
      [expect.stringMatching(/counter stopped/), expect.objectContaining({ position: 6 })],
    ]);
    expect(store.checkpoint('counter')?.failure?.message).toBe('cannot take 6');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect([count(), count('ok')]).toEqual([5, 10]);

    await r.stop();
    const fixed = await start([countingProjection(), countingProjection({ name: 'ok' })]);
    await fixed.waitForPosition(10, 2000);
    expect([count(), count('ok')]).toEqual([10, 10]);
    expect(store.checkpoint('counter')?.failure).toBeNull();
  });

  it('rebuilds a projection whose version changed from 0, and only that one', async () => {
    await append(20);
    const first = await start([countingProjection(), countingProjection({ name: 'other' })]);
    await first.waitForPosition(20, 2000);
    await first.stop();
    const counter = countingProjection({ version: 2 });
    const other = countingProjection({ name: 'other' });
    const applied = [jest.spyOn(counter, 'apply'), jest.spyOn(other, 'apply')];
    const r = await start([counter, other]);
    await r.waitForPosition(await append(5), 2000);
    expect([count(), count('other')]).toEqual([25, 25]);
    expect(applied.map((spy) => spy.mock.calls.length)).toEqual([25, 5]);
  });

  it('applies nothing twice across stop and restart, while appends go on', async () => {
    const appending = (async () => {
      for (let i = 0; i < 20; i++) await append(10);
    })();
    for (let i = 0; i < 4; i++) {
      await start([countingProjection()], 7);
      await new Promise((resolve) => setTimeout(resolve, 5));
      await runner?.stop();
    }
    await appending;
    const r = await start([countingProjection()], 7);
    await r.waitForPosition(200, 5000);
    expect(count()).toBe(200);
  });

  it('rejects waits when stopped, and waits on a runner that is not running', async () => {
    const r = await start([countingProjection()]);
    const wait = r.waitForPosition(5, 5000);
    await r.stop();
    await expect(wait).rejects.toMatchObject({ reason: 'stopped' });
    await expect(r.waitForPosition(5, 5000)).rejects.toThrow(/not running/);
  });

  it('stops, logs and rejects waiters when SQLite itself fails, applying nothing of the batch', async () => {
    await append(5);
    jest.spyOn(store, 'write').mockImplementation(() => {
      throw new Error('SQLITE_IOERR: disk I/O error');
    });
    const r = await start([countingProjection()]);
    await expect(r.waitForPosition(5, 2000)).rejects.toMatchObject({ reason: 'stopped' });
    expect(logged).toEqual([
      [
        expect.stringMatching(/cannot read or write/),
        expect.objectContaining({ error: 'SQLITE_IOERR: disk I/O error' }),
      ],
    ]);
    expect(store.checkpoint('counter')?.position).toBe(-1);
    await expect(r.waitForPosition(5, 2000)).rejects.toThrow(/not running/);
  });
});
