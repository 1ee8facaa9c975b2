import type { EventStore, RecordedEvent, Subscription } from '@sessionboxer/event-store';
import { catchUp, subscribeAfter } from '../runner/catch-up';
import { PositionWaiters } from '../runner/position-waiters';
import type { RunnerLogger } from '../runner/projection-runner';
import type { Checkpoint, ReactorCheckpoint } from '../store/read-model-store';
import type { SqliteReadModelStore } from '../store/sqlite-read-model-store';
import type { ReactionContext, Reactor } from './reactor';

export interface ReactorRunnerOptions {
  eventStore: EventStore;
  /** Holds the reactors' checkpoints, beside the projections' (a table of their own). */
  store: SqliteReadModelStore;
  reactors: readonly Reactor[];
  /** Each reaction waits for these read models to show its event first (the ProjectionRunner). */
  readModels?: { waitForPosition(position: number): Promise<void> };
  /**
   * Where a reactor without a checkpoint starts: `head` (the default) reacts to what is
   * appended after its first start, so a new reactor does not act on years of history with
   * today's rules; `start` reacts to every event there is.
   */
  newReactorsFrom?: 'head' | 'start';
  /** Backoff between tries of a failing reaction: doubling from `firstMs` up to `maxMs`. */
  retry?: { firstMs?: number; maxMs?: number };
  /** Most events gathered before reacting; the checkpoint is saved at least once per batch. */
  batchSize?: number;
  logger?: RunnerLogger;
}

/** How many skipped batches, or how long, a reactor's checkpoint may lag in memory. */
const LAZY_SAVE_BATCHES = 100;
const LAZY_SAVE_MS = 1000;

const consoleLogger: RunnerLogger = {
  error: (message, context) => console.error(`[reactors] ${message}`, context),
};

/**
 * Runs reactors: each follows `$all` on its own catch-up subscription (the projections' catch-up
 * code) from its own checkpoint, so a slow or failing one never holds up another. A reaction
 * that throws is logged, recorded on the checkpoint (`failure`, seen in `status()`) and tried
 * again with backoff until it succeeds: the reactor stays on that event, because skipping it
 * would lose the effect for good, and the events after it wait so each reactor keeps `$all`
 * order. The checkpoint moves only after a reaction succeeded (events it does not handle move
 * it too), so after a restart each reactor continues after the last event it is done with.
 */
export class ReactorRunner {
  private readonly cursors = new Map<string, ReactorCheckpoint>();
  private readonly subscriptions = new Set<Subscription>();
  private readonly waiters = new PositionWaiters();
  private readonly oneWaiters = new Map<string, PositionWaiters>();
  /** Batches of events a reactor skipped since its checkpoint was last written, and when. */
  private readonly unsaved = new Map<string, number>();
  private readonly savedAt = new Map<string, number>();
  private loops: Promise<void>[] = [];
  private running = false;
  private abort = new AbortController();
  private readonly logger: RunnerLogger;

  constructor(private readonly options: ReactorRunnerOptions) {
    this.logger = options.logger ?? consoleLogger;
    const names = options.reactors.map((r) => r.name);
    const twice = names.find((name, i) => names.indexOf(name) !== i);
    if (twice !== undefined) throw new Error(`two reactors are named ${twice}`);
  }

  /** Loads (or starts) every reactor's checkpoint and starts following the log. */
  async start(): Promise<void> {
    if (this.running) throw new Error('reactor runner already started');
    const { store, reactors, newReactorsFrom = 'head' } = this.options;
    const head = newReactorsFrom === 'head' ? await this.options.eventStore.headPosition() : -1;
    for (const { name } of reactors) {
      const stored = store.reactorCheckpoint(name);
      const checkpoint = { reactor: name, position: stored?.position ?? head, failure: null };
      if (stored === null) store.saveReactorCheckpoint(checkpoint);
      this.cursors.set(name, checkpoint);
    }
    this.running = true;
    this.abort = new AbortController();
    this.loops = reactors.map((reactor) => this.follow(reactor));
  }

  /** Stops after the reactions in hand; one waiting for its retry is left to the next start. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.abort.abort();
    await Promise.all([...this.subscriptions].map((s) => s.close().catch(() => undefined)));
    await Promise.all(this.loops);
    this.loops = [];
    for (const name of this.unsaved.keys()) this.save(this.cursors.get(name) as ReactorCheckpoint);
    this.waiters.rejectAll(this.asCheckpoints());
    for (const waiters of this.oneWaiters.values()) waiters.rejectAll(this.asCheckpoints());
  }

  /**
   * Resolves once the reactor `name` is done with `position`: for a command whose answer
   * promises one reaction (another reactor may be the caller, so waiting for all could wait
   * for itself).
   */
  waitForReactor(name: string, position: number, timeoutMs = 5000): Promise<void> {
    const one = () => this.asCheckpoints().filter((c) => c.projection === `reactor ${name}`);
    if (one().length === 0) return Promise.reject(new Error(`no reactor named ${name}`));
    let waiters = this.oneWaiters.get(name);
    if (!waiters) this.oneWaiters.set(name, (waiters = new PositionWaiters()));
    return waiters.check(position, one()) ?? waiters.add(position, timeoutMs, one);
  }

  /** Every reactor's checkpoint, with the reaction it is retrying, if any. */
  status(): ReactorCheckpoint[] {
    return [...this.cursors.values()];
  }

  /** Resolves once every reactor is done with `position`; rejects after `timeoutMs`. */
  waitForPosition(position: number, timeoutMs = 5000): Promise<void> {
    return (
      this.waiters.check(position, this.asCheckpoints()) ??
      this.waiters.add(position, timeoutMs, () => this.asCheckpoints())
    );
  }

  private async follow(reactor: Reactor): Promise<void> {
    const handles = new Set(reactor.handles);
    for (let attempt = 1; this.running; attempt++) {
      const subscription = subscribeAfter(this.options.eventStore, this.cursor(reactor).position);
      this.subscriptions.add(subscription);
      try {
        await catchUp(subscription[Symbol.asyncIterator](), {
          batchSize: this.options.batchSize ?? 100,
          running: () => this.running,
          onBatch: (batch) => this.reactToBatch(reactor, handles, batch),
        });
        return;
      } catch (error) {
        if (!this.running) return;
        this.logger.error(`reactor ${reactor.name} cannot follow the log; following it again`, {
          error: errorText(error),
          checkpoint: this.cursor(reactor).position,
        });
        await this.sleep(this.delay(attempt));
      } finally {
        this.subscriptions.delete(subscription);
        await subscription.close().catch(() => undefined);
      }
    }
  }

  private async reactToBatch(
    reactor: Reactor,
    handles: ReadonlySet<string>,
    batch: readonly RecordedEvent[],
  ): Promise<void> {
    const saved = this.cursor(reactor).position;
    for (const event of batch) {
      if (event.position <= this.cursor(reactor).position) continue;
      if (handles.has(event.type) && !(await this.reactOnce(reactor, event))) break;
      this.cursors.set(reactor.name, {
        reactor: reactor.name,
        position: event.position,
        failure: null,
      });
    }
    if (this.cursor(reactor).position === saved) return;
    // Past events it does not handle, the checkpoint is written now and then, not on every
    // commit (a crash replays them, and they are not its events). Its reactions are always.
    const unsaved = (this.unsaved.get(reactor.name) ?? 0) + 1;
    const due = Date.now() - (this.savedAt.get(reactor.name) ?? 0) >= LAZY_SAVE_MS;
    if (unsaved >= LAZY_SAVE_BATCHES || due) this.save(this.cursor(reactor));
    else {
      this.unsaved.set(reactor.name, unsaved);
      this.settle(this.cursor(reactor));
    }
  }

  /** True once the reaction succeeded (its checkpoint saved), false when the runner stopped. */
  private async reactOnce(reactor: Reactor, event: RecordedEvent): Promise<boolean> {
    const key = (part?: string) => [reactor.name, event.id, ...(part ? [part] : [])].join('/');
    for (let attempt = 1; this.running; attempt++) {
      const ctx: ReactionContext = { key, attempt };
      try {
        await this.options.readModels?.waitForPosition(event.position);
        await reactor.react(event, ctx);
        this.save({ reactor: reactor.name, position: event.position, failure: null });
        return true;
      } catch (error) {
        if (!this.running) return false;
        this.noteFailure(reactor, event, attempt, error);
        await this.sleep(this.delay(attempt));
      }
    }
    return false;
  }

  private noteFailure(reactor: Reactor, event: RecordedEvent, attempts: number, error: unknown) {
    const message = errorText(error);
    const retryMs = this.delay(attempts);
    const failure = { position: event.position, eventId: event.id, eventType: event.type };
    this.save({ ...this.cursor(reactor), failure: { ...failure, message, attempts } });
    this.logger.error(
      `reactor ${reactor.name} failed to react to ${event.type} at ${event.position} ` +
        `(attempt ${attempts}); trying again in ${retryMs} ms`,
      { ...failure, message, attempts },
    );
  }

  private save(checkpoint: ReactorCheckpoint): void {
    this.options.store.saveReactorCheckpoint(checkpoint);
    this.unsaved.delete(checkpoint.reactor);
    this.savedAt.set(checkpoint.reactor, Date.now());
    this.settle(checkpoint);
  }

  /** The checkpoint as the waiters see it (saved or not yet). */
  private settle(checkpoint: ReactorCheckpoint): void {
    this.cursors.set(checkpoint.reactor, checkpoint);
    const all = this.asCheckpoints();
    this.waiters.settle(all);
    const mine = all.filter((c) => c.projection === `reactor ${checkpoint.reactor}`);
    this.oneWaiters.get(checkpoint.reactor)?.settle(mine);
  }

  private cursor(reactor: Reactor): ReactorCheckpoint {
    const cursor = this.cursors.get(reactor.name);
    if (cursor === undefined) throw new Error(`reactor ${reactor.name} was not started`);
    return cursor;
  }

  private delay(attempt: number): number {
    const { firstMs = 100, maxMs = 30_000 } = this.options.retry ?? {};
    return Math.min(maxMs, firstMs * 2 ** Math.min(attempt - 1, 30));
  }

  /** Resolves after `ms`, or at once when the runner stops. */
  private sleep(ms: number): Promise<void> {
    const signal = this.abort.signal;
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  /** As PositionWaiters reads them; a retrying reaction is no reason to give up waiting. */
  private asCheckpoints(): Checkpoint[] {
    return this.status().map((c) => ({
      projection: `reactor ${c.reactor}`,
      version: 0,
      position: c.position,
      failure: null,
    }));
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
