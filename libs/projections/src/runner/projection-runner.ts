import type { EventStore, RecordedEvent, Subscription } from '@sessionboxer/event-store';
import type { AnyProjection } from '../projection';
import type { Checkpoint } from '../store/read-model-store';
import type { SqliteReadModelStore } from '../store/sqlite-read-model-store';
import { applyEvents, type ProjectionCursor } from './apply-events';
import { catchUp, subscribeAfter } from './catch-up';
import { PositionWaiters, ReadModelLagError } from './position-waiters';

/** Where the runner reports what it cannot fix itself. */
export interface RunnerLogger {
  error(message: string, context: Record<string, unknown>): void;
}

export interface ProjectionRunnerOptions {
  eventStore: EventStore;
  store: SqliteReadModelStore;
  projections: readonly AnyProjection[];
  /** Most events per transaction, in a catch-up (live, a batch is what is there). Default 5,000. */
  batchSize?: number;
  logger?: RunnerLogger;
}

const consoleLogger: RunnerLogger = {
  error: (message, context) => console.error(`[projections] ${message}`, context),
};

/**
 * Keeps read models up to date: a catch-up subscription to `$all` from the lowest checkpoint,
 * applied in batches, each batch one transaction with its checkpoints (see applyEvents).
 *
 * Batches take what is available: events that arrive without waiting (a catch-up after a
 * restart) are grouped up to `batchSize`; when the subscription would wait for the next
 * event, what was gathered is applied at once, so live reads lag by one transaction only.
 *
 * A projection whose `apply` throws is stopped on that event and logged with its position;
 * the others go on, and `waitForPosition` past that event rejects naming it. Its checkpoint
 * stays before the event, so after a fix a restart retries it: `start()` clears failures.
 * If the subscription or SQLite fails, the runner stops and logs it, and waiters are rejected.
 */
export class ProjectionRunner {
  private cursors: ProjectionCursor[] = [];
  private subscription: Subscription | null = null;
  private loop: Promise<void> | null = null;
  /** False once stop() is called or the loop has ended on an error. */
  private running = false;
  private readonly waiters = new PositionWaiters();
  private readonly batchSize: number;
  private readonly logger: RunnerLogger;

  constructor(private readonly options: ProjectionRunnerOptions) {
    this.batchSize = options.batchSize ?? 5000;
    this.logger = options.logger ?? consoleLogger;
  }

  /** Registers the projections (rebuilding those whose version changed) and starts applying. */
  start(): Promise<void> {
    if (this.loop !== null) return Promise.reject(new Error('projection runner already started'));
    if (this.options.projections.length === 0) {
      return Promise.reject(new Error('projection runner has no projections to run'));
    }
    try {
      this.cursors = this.register();
      const from = Math.min(...this.cursors.map((c) => c.checkpoint.position));
      const subscription = subscribeAfter(this.options.eventStore, from);
      this.subscription = subscription;
      this.running = true;
      this.loop = this.run(subscription);
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** Stops after the batch in hand; pending waiters are rejected. */
  async stop(): Promise<void> {
    if (this.loop === null) return;
    this.running = false;
    await this.subscription?.close();
    await this.loop;
    this.loop = null;
    this.subscription = null;
  }

  /** Resolves once every projection has applied `position`; rejects after `timeoutMs`. */
  waitForPosition(position: number, timeoutMs = 5000): Promise<void> {
    const settled = this.waiters.check(position, this.status());
    if (settled !== null) return settled;
    if (!this.running) {
      const message = `projection runner is not running (waiting for position ${position})`;
      return Promise.reject(new ReadModelLagError('stopped', position, this.status(), message));
    }
    return this.waiters.add(position, timeoutMs, () => this.status());
  }

  /** Each projection's checkpoint as applied. */
  status(): Checkpoint[] {
    return this.cursors.map((c) => c.checkpoint);
  }

  /** A failure is retried by a new start: the code may have been fixed meanwhile. */
  private register(): ProjectionCursor[] {
    const { store, projections } = this.options;
    return store.transaction(() =>
      store.register(projections).map((stored, i) => {
        const checkpoint = { ...stored, failure: null };
        if (stored.failure !== null) store.saveCheckpoint(checkpoint);
        return { projection: projections[i], checkpoint };
      }),
    );
  }

  private async run(subscription: Subscription): Promise<void> {
    const events = subscription[Symbol.asyncIterator]();
    try {
      await catchUp(events, {
        batchSize: this.batchSize,
        running: () => this.running,
        onBatch: (batch) => this.apply(batch),
      });
    } catch (error) {
      this.logger.error('projection runner stopped: it cannot read or write', {
        error: error instanceof Error ? error.message : String(error),
        checkpoints: this.status(),
      });
      await subscription.close().catch(() => undefined);
    } finally {
      this.running = false;
      this.waiters.rejectAll(this.status());
    }
  }

  private apply(batch: readonly RecordedEvent[]): void {
    if (batch.length === 0) return;
    const before = this.cursors;
    this.cursors = applyEvents(this.options.store, before, batch);
    this.cursors.forEach((c, i) => {
      const failure = c.checkpoint.failure;
      if (failure !== null && before[i].checkpoint.failure === null) {
        this.logger.error(`projection ${c.projection.name} stopped on an event it cannot apply`, {
          ...failure,
          checkpoint: c.checkpoint.position,
        });
      }
    });
    this.waiters.settle(this.status());
  }
}
