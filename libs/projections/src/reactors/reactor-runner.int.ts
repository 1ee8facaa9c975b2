import { join } from 'node:path';
import type { RecordedEvent } from '@sessionboxer/event-store';
import { SqliteEventStore } from '@sessionboxer/event-store/sqlite';
import { ticks } from '../../test/counting-projection';
import { useTempDir } from '../../test/temp-files';
import type { RunnerLogger } from '../runner/projection-runner';
import { SqliteReadModelStore } from '../store/sqlite-read-model-store';
import type { ReactionContext, Reactor } from './reactor';
import { ReactorRunner, type ReactorRunnerOptions } from './reactor-runner';

/** Records what it reacted to; `fail(event, attempt)` true makes that try throw. */
function recorder(
  name: string,
  fail: (e: RecordedEvent, attempt: number) => boolean = () => false,
) {
  const seen: Array<{ n: number; attempt: number; key: string }> = [];
  const reactor: Reactor = {
    name,
    handles: ['Ticked'],
    react: (event: RecordedEvent, ctx: ReactionContext) => {
      if (fail(event, ctx.attempt)) return Promise.reject(new Error(`not now (${ctx.attempt})`));
      seen.push({ n: (event.data as { n: number }).n, attempt: ctx.attempt, key: ctx.key() });
      return Promise.resolve();
    },
  };
  return { reactor, seen, ns: () => seen.map((s) => s.n) };
}

describe('ReactorRunner (real SQLite event store)', () => {
  const dir = useTempDir();
  let events: SqliteEventStore;
  let store: SqliteReadModelStore;
  let runner: ReactorRunner | undefined;
  const logged: string[] = [];
  const logger: RunnerLogger = { error: (message) => logged.push(message) };

  const open = () => {
    events = SqliteEventStore.open({ path: join(dir(), 'events.db'), synchronous: 'NORMAL' });
    store = SqliteReadModelStore.open({ path: join(dir(), 'read.db') });
  };
  const close = async () => {
    await runner?.stop();
    runner = undefined;
    store.close();
    await events.close();
  };
  beforeEach(() => {
    open();
    logged.length = 0;
  });
  afterEach(close);

  const start = async (reactors: Reactor[], options: Partial<ReactorRunnerOptions> = {}) => {
    runner = new ReactorRunner({ eventStore: events, store, reactors, logger, ...options });
    await runner.start();
    return runner;
  };
  /** Appends `count` Ticked events numbered from `from`, and one other event after them. */
  const append = async (count: number, from = 0) => {
    await events.appendToStream('tick-1', ticks(count, from));
    const other = { ...ticks(1)[0], type: 'Other' };
    return (await events.appendToStream('other-1', [other])).position;
  };
  const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

  it('reacts to each event it handles once, in order, with a key from the event id', async () => {
    const a = recorder('a');
    const r = await start([a.reactor]);
    const head = await append(250);
    await r.waitForPosition(head, 5000);
    expect(a.ns()).toEqual(range(0, 250));
    expect(new Set(a.seen.map((s) => s.key)).size).toBe(250);
    expect(a.seen[0].key).toMatch(/^a\/[0-9a-f-]{36}$/);
    // Its last reaction is written at once; the event it does not handle after it, lazily
    // (it is in memory now, and on disk once the runner stops).
    expect(store.reactorCheckpoint('a')?.position).toBe(head - 1);
    expect(r.status()).toEqual([{ reactor: 'a', position: head, failure: null }]);
    await r.stop();
    expect(store.reactorCheckpoint('a')).toEqual({ reactor: 'a', position: head, failure: null });
  });

  it('continues from its checkpoint after a restart: nothing twice, nothing missed', async () => {
    const a = recorder('a');
    await (await start([a.reactor])).waitForPosition(await append(5), 5000);
    await close();
    open();
    const later = await append(3, 5); // appended while no runner ran
    const again = recorder('a');
    await (await start([again.reactor])).waitForPosition(later, 5000);
    expect([a.ns(), again.ns()]).toEqual([range(0, 5), range(5, 8)]);
  });

  it('starts a new reactor at the head by default, or at the first event when asked', async () => {
    await append(4);
    const fresh = recorder('fresh');
    const all = recorder('all');
    await start([fresh.reactor]);
    const head = await append(1, 4);
    await runner?.waitForPosition(head, 5000);
    await runner?.stop();
    await (await start([all.reactor], { newReactorsFrom: 'start' })).waitForPosition(head, 5000);
    expect([fresh.ns(), all.ns()]).toEqual([[4], range(0, 5)]);
  });

  it('retries a failing reaction with backoff until it succeeds, logging each failure', async () => {
    const flaky = recorder(
      'flaky',
      (e, attempt) => (e.data as { n: number }).n === 1 && attempt < 4,
    );
    const r = await start([flaky.reactor], { retry: { firstMs: 20, maxMs: 40 } });
    const head = await append(3);
    await r.waitForPosition(head, 5000);
    expect(flaky.seen).toEqual([
      expect.objectContaining({ n: 0, attempt: 1 }),
      expect.objectContaining({ n: 1, attempt: 4 }),
      expect.objectContaining({ n: 2, attempt: 1 }),
    ]);
    expect(logged).toEqual(
      [1, 2, 3].map((a) =>
        expect.stringContaining(`flaky failed to react to Ticked at 2 (attempt ${a})`),
      ),
    );
    expect(r.status()[0].failure).toBeNull();
  });

  it('keeps a reactor whose reaction keeps failing on that event, without holding up another', async () => {
    const stuck = recorder('stuck', (e) => (e.data as { n: number }).n === 1);
    const other = recorder('other');
    const r = await start([stuck.reactor, other.reactor], { retry: { firstMs: 10, maxMs: 10 } });
    const head = await append(3);
    await until(() => other.ns().length === 3 && logged.length >= 3);
    expect([stuck.ns(), other.ns()]).toEqual([[0], [0, 1, 2]]);
    const [stuckAt] = r.status();
    expect(stuckAt).toMatchObject({ position: 1, failure: { position: 2, eventType: 'Ticked' } });
    expect(stuckAt.failure?.attempts).toBeGreaterThanOrEqual(3);
    expect(r.status()[1]).toMatchObject({ reactor: 'other', position: head });
    await expect(r.waitForPosition(head, 100)).rejects.toThrow(/reactor stuck at 1/);
    // A wait for one reactor's reaction is not held up by another that is stuck.
    await expect(r.waitForReactor('other', head, 1000)).resolves.toBeUndefined();
    await expect(r.waitForReactor('stuck', head, 100)).rejects.toThrow(/reactor stuck at 1/);
    await expect(r.waitForReactor('nobody', head)).rejects.toThrow('no reactor named nobody');
  });

  it('resolves a wait for one reactor once it reacted to that position, not before', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const slow = recorder('slow');
    const gated: Reactor = {
      ...slow.reactor,
      react: (e, c) => gate.then(() => slow.reactor.react(e, c)),
    };
    const r = await start([gated]);
    const head = await append(2);
    let done = false;
    const waiting = r.waitForReactor('slow', head, 5000).then(() => (done = true));
    await new Promise((t) => setTimeout(t, 50));
    expect(done).toBe(false);
    release();
    await waiting;
    expect(slow.ns()).toEqual([0, 1]);
  });

  it('lets each reaction wait for the read models to show its event first', async () => {
    const waited: number[] = [];
    const a = recorder('a');
    const readModels = {
      waitForPosition: (p: number) => {
        waited.push(p);
        return Promise.resolve();
      },
    };
    const head = await append(2);
    await (
      await start([a.reactor], { readModels, newReactorsFrom: 'start' })
    ).waitForPosition(head);
    expect(waited).toEqual([1, 2]);
  });

  it('refuses two reactors of one name', () => {
    expect(
      () =>
        new ReactorRunner({
          eventStore: events,
          store,
          reactors: [recorder('x').reactor, recorder('x').reactor],
        }),
    ).toThrow(/two reactors are named x/);
  });
});

async function until(ok: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}
