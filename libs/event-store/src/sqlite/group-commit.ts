/**
 * Group commit: appends that arrive while the event loop is busy share one write transaction
 * and so one fsync, which is where the time goes with `synchronous=FULL`.
 *
 * An append that shares its batch runs in its own SAVEPOINT, so an error in it undoes only that
 * append and its neighbours still commit. A refusal (conflict, reused ids) is found before
 * anything is written. Callers are settled only after COMMIT has returned, so a resolved
 * promise means the events are on disk.
 */
import type Database from 'better-sqlite3';
import type { AppendObserver } from '../append-observer';
import { ConcurrencyError, IdempotencyError, type AppendResult } from '../event-store.port';
import { applyAppend, type AppliedAppend } from './apply-append';
import type { AppendRequest, EventWriter } from './event-writer';
import type { EventTable } from './event-table';

interface Pending {
  request: AppendRequest;
  /** When its batch began gathering: when it is recorded (see EventWriter.recordedAt). */
  at: string;
  /** performance.now() at enqueue, only when an observer listens. */
  started: number;
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

type Outcome = { ok: true; applied: AppliedAppend } | { ok: false; error: unknown };

/** Counters that show group commit at work. */
export interface GroupCommitStats {
  /** Write transactions committed. */
  commits: number;
  /** Appends that wrote events (idempotent repeats and refused appends excluded). */
  appends: number;
  /** Events written. */
  events: number;
}

/**
 * A long batch holds the event loop for its whole transaction; beyond this many appends the
 * rest waits for the next turn so reads and subscriptions still get the loop.
 */
const MAX_APPENDS_PER_COMMIT = 512;

/** Queues appends and commits them in batches; see the file comment. */
export class GroupCommitter {
  private queue: Pending[] = [];
  /** Events queued and not yet in a batch. */
  private queuedEvents = 0;
  /** The recorded time of what is queued now; set by the first append after a flush. */
  private gatheringAt: string | undefined;
  private scheduled: { cancel(): void } | undefined;
  private readonly counters: GroupCommitStats = { commits: 0, appends: 0, events: 0 };
  private readonly runBatch: (batch: Pending[]) => Outcome[];

  constructor(
    db: Database.Database,
    private readonly table: EventTable,
    private readonly writer: EventWriter,
    private readonly maxWaitMs: number,
    private readonly onCommit: () => void,
    private readonly observer?: AppendObserver,
  ) {
    // better-sqlite3 turns a transaction function called inside another into a SAVEPOINT.
    const inSavepoint = db.transaction((request: AppendRequest, at: string) =>
      applyAppend(this.table, this.writer, request, at),
    );
    const all = db.transaction((batch: Pending[]) => {
      // The chain head is read inside the write lock; the batch chains on in position order.
      this.writer.begin();
      // A lone append needs no savepoint (two statements fewer on the single-writer path): a
      // refusal is thrown before it writes, and any other error rolls the whole batch back.
      const alone = batch.length === 1;
      return batch.map((p): Outcome => {
        const mark = this.writer.mark();
        try {
          const at = this.writer.recordedAt(p.at);
          const applied = alone
            ? applyAppend(this.table, this.writer, p.request, at)
            : inSavepoint(p.request, at);
          return { ok: true, applied };
        } catch (error) {
          if (alone && !isRefusal(error)) throw error;
          // Its savepoint undid its rows: the next append chains from where this one began.
          this.writer.restore(mark);
          return { ok: false, error };
        }
      });
    });
    this.runBatch = (batch) => all.immediate(batch);
  }

  /**
   * Queues the append `prepare` returns (it validates; a throw rejects the promise, with one
   * promise per append on the hot path). Resolves once its batch has committed.
   */
  enqueue(prepare: () => AppendRequest): Promise<AppendResult> {
    return new Promise<AppendResult>((resolve, reject) => {
      const started = this.observer ? performance.now() : 0;
      const request = prepare();
      const at = (this.gatheringAt ??= new Date().toISOString());
      this.queue.push({ request, at, started, resolve, reject });
      this.queuedEvents += request.events.length;
      this.writer.queued(request, at);
      this.schedule();
    });
  }

  /** Commits everything queued now, synchronously (used by close). */
  flushNow(): void {
    this.cancelScheduled();
    while (this.queue.length > 0) this.flushOnce();
  }

  stats(): GroupCommitStats {
    return { ...this.counters };
  }

  private schedule(): void {
    if (this.scheduled !== undefined) return;
    const run = (): void => {
      this.scheduled = undefined;
      this.flushOnce();
      if (this.queue.length > 0) this.schedule();
    };
    // setImmediate runs once the callers of this turn have all queued, without fixed latency.
    if (this.maxWaitMs > 0) {
      const timer = setTimeout(run, this.maxWaitMs);
      this.scheduled = { cancel: () => clearTimeout(timer) };
    } else {
      const immediate = setImmediate(run);
      this.scheduled = { cancel: () => clearImmediate(immediate) };
    }
  }

  private cancelScheduled(): void {
    this.scheduled?.cancel();
    this.scheduled = undefined;
  }

  private flushOnce(): void {
    this.gatheringAt = undefined;
    const batch = this.queue.splice(0, MAX_APPENDS_PER_COMMIT);
    if (batch.length === 0) return;
    for (const p of batch) this.queuedEvents -= p.request.events.length;
    let outcomes: Outcome[];
    try {
      outcomes = this.runBatch(batch);
    } catch (error) {
      // BEGIN or COMMIT failed (disk full, I/O error, lock timeout): nothing of the batch is
      // on disk, so every caller learns it failed.
      this.writer.reset();
      this.ended(batch);
      for (const p of batch) this.observe(p, false);
      for (const p of batch) p.reject(error);
      return;
    }
    this.ended(batch);
    this.counters.commits++;
    const before = { appends: this.counters.appends, events: this.counters.events };
    const wrote = batch.map((p, i) => this.settle(p, outcomes[i])).some(Boolean);
    if (!wrote) return;
    this.observer?.committed(
      this.counters.appends - before.appends,
      this.counters.events - before.events,
    );
    this.onCommit();
  }

  private ended(batch: Pending[]): void {
    this.writer.batchEnded(
      batch.map((p) => p.request),
      this.queuedEvents,
    );
  }

  private observe(p: Pending, ok: boolean): void {
    this.observer?.appended((performance.now() - p.started) / 1000, ok);
  }

  /** Settles one caller; true when its append wrote events. */
  private settle(p: Pending, outcome: Outcome): boolean {
    this.observe(p, outcome.ok);
    if (!outcome.ok) {
      p.reject(outcome.error);
      return false;
    }
    const { written, result } = outcome.applied;
    if (written) {
      this.counters.appends++;
      this.counters.events += p.request.events.length;
    }
    p.resolve(result);
    return written;
  }
}

/** The port's refusals, which applyAppend throws before writing anything. */
function isRefusal(error: unknown): boolean {
  return error instanceof ConcurrencyError || error instanceof IdempotencyError;
}
