/**
 * The embedded event store: one SQLite file (WAL, `synchronous=FULL` by default), written
 * through group commit, read and subscribed to by cursor. Several processes may open the same
 * file; SQLite's write lock orders their commits and subscriptions poll for each other's.
 */
import type Database from 'better-sqlite3';
import { validateAppend } from '../append-validation';
import type {
  AppendOptions,
  AppendResult,
  EventStore,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeToAllOptions,
  SubscribeToStreamOptions,
  Subscription,
} from '../event-store.port';
import { checkSubscriptionStart, resolveRead } from '../read-options';
import type { AppendObserver } from '../append-observer';
import type { ChainedEvent } from '../chain/canonical';
import type { ChainReader } from '../chain/chain-reader';
import { ChainRows } from './chain-rows';
import { ChainTable } from './chain-table';
import { ChainWriter, UnchainedWriter } from './chain-writer';
import type { DigestThreadMode } from './digests-ahead';
import type { EventWriter } from './event-writer';
import { ChangeNotifier } from './change-notifier';
import { EventTable, NO_LIMIT } from './event-table';
import { GroupCommitter, type GroupCommitStats } from './group-commit';
import { PagedSubscription } from './paged-subscription';
import type { MigrationProgress } from './migrate-v2';
import { openEventDatabase, type SqliteSynchronous } from './schema';

/** How to open a SQLite event store. */
export interface SqliteEventStoreOptions {
  /** The database file; created with its schema when missing. */
  path: string;
  /** Default FULL: an acknowledged append survives power loss, not only a process crash. */
  synchronous?: SqliteSynchronous;
  /**
   * How long the first append of a batch waits for company before the commit. Default 0: the
   * batch commits as soon as the event loop is free (setImmediate), which already gathers
   * every append made in the same turn. Measured with 64 writers (tools/bench/store.bench.ts):
   * 0 ms ≈ 25k events/s, 1 ms ≈ 20k, 2 ms ≈ 15k, and the wait is pure latency for a lone writer.
   */
  groupCommitMaxWaitMs?: number;
  /** How often an idle subscription looks for commits made by other processes. Default 50. */
  pollIntervalMs?: number;
  /** Told how far chaining a version-1 file's events has come (see migrate-v2.ts). */
  onMigration?: MigrationProgress;
  /**
   * Default true. False writes events without their hash: for tools/bench/audit.bench.ts to
   * measure what the chain costs, never for a real store (verify then fails at once).
   */
  hashChain?: boolean;
  /**
   * Whether a second thread makes the chain's digests ahead of the transaction
   * (chain/digest-thread.ts). Default `auto`: once appends come in bunches, on a machine with
   * more than one core. The store's contents are the same either way.
   */
  digestThread?: DigestThreadMode;
  /** Told of every commit and append (the control plane's metrics). */
  observer?: AppendObserver;
}

/** The SQLite adapter of the EventStore port. */
export class SqliteEventStore implements EventStore, ChainReader {
  private readonly table: EventTable;
  private readonly chain: ChainTable;
  private readonly chainRows: ChainRows;
  private readonly committer: GroupCommitter;
  private readonly writer: EventWriter;
  private readonly notifier: ChangeNotifier;
  private readonly subscriptions = new Set<PagedSubscription>();
  /** The last page a `$all` subscription read; see readAllPage. */
  private lastAllPage: { mark: number; cursor: number; events: RecordedEvent[] } | undefined;
  private closed = false;

  private constructor(
    private readonly db: Database.Database,
    options: SqliteEventStoreOptions,
  ) {
    this.table = new EventTable(db);
    this.chain = new ChainTable(db);
    this.chainRows = new ChainRows(db);
    const writer = (this.writer =
      options.hashChain === false
        ? new UnchainedWriter(this.table)
        : new ChainWriter(this.chain, options.digestThread));
    this.notifier = new ChangeNotifier(
      () => this.table.dataVersion(),
      options.pollIntervalMs ?? 50,
    );
    this.committer = new GroupCommitter(
      db,
      this.table,
      writer,
      options.groupCommitMaxWaitMs ?? 0,
      () => this.notifier.notify(),
      options.observer,
    );
  }

  /** Opens (creating when missing) the store file at `options.path`. Synchronous. */
  static open(options: SqliteEventStoreOptions): SqliteEventStore {
    const db = openEventDatabase(options.path, options.synchronous ?? 'FULL', options.onMigration);
    return new SqliteEventStore(db, options);
  }

  appendToStream(
    streamName: string,
    events: readonly NewEvent[],
    options?: AppendOptions,
  ): Promise<AppendResult> {
    return this.committer.enqueue(() => {
      this.assertOpen();
      return { streamName, ...validateAppend(streamName, events, options) };
    });
  }

  readStream(streamName: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    return this.run(() => {
      const r = resolveRead(options.direction, options.fromRevision, options.maxCount);
      return this.table.readStream(streamName, r.from, r.forwards, r.maxCount ?? NO_LIMIT);
    });
  }

  readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    return this.run(() => {
      const r = resolveRead(options.direction, options.fromPosition, options.maxCount);
      return this.table.readAll(r.from, r.forwards, r.maxCount ?? NO_LIMIT);
    });
  }

  subscribeToStream(streamName: string, options: SubscribeToStreamOptions = {}): Subscription {
    this.assertOpen();
    const from = checkSubscriptionStart(options.fromRevision ?? 'start');
    const after =
      from === 'start' ? -1 : from === 'end' ? this.table.streamRevision(streamName) : from;
    return this.track(
      new PagedSubscription(
        (cursor, limit) => this.table.readStream(streamName, cursor + 1, true, limit),
        after,
        (e) => e.revision,
        this.notifier,
        (s) => this.subscriptions.delete(s),
      ),
    );
  }

  subscribeToAll(options: SubscribeToAllOptions = {}): Subscription {
    this.assertOpen();
    const from = checkSubscriptionStart(options.fromPosition ?? 'start');
    const after = from === 'start' ? -1 : from === 'end' ? this.table.headPosition() : from;
    return this.track(
      new PagedSubscription(
        (cursor, limit, mark) => this.readAllPage(cursor, limit, mark),
        after,
        (e) => e.position,
        this.notifier,
        (s) => this.subscriptions.delete(s),
      ),
    );
  }

  headPosition(): Promise<number> {
    return this.run(() => this.table.headPosition());
  }

  /** The events from `fromPosition` on with their hashes, as the chain hashed them. */
  readChain(fromPosition: number, maxCount: number): Promise<ChainedEvent[]> {
    return this.run(() => this.chainRows.read(fromPosition, maxCount));
  }

  chainHead(): Promise<{ position: number; hash: Buffer | null } | null> {
    return this.run(() => {
      const head = this.chain.head();
      return head ? { position: head.position, hash: head.hash } : null;
    });
  }

  /** Group-commit counters, and where the chain's digests were made, for tests and benchmarks. */
  stats(): GroupCommitStats & { digests: { ahead: number; linked: number; here: number } } {
    const digests =
      this.writer instanceof ChainWriter
        ? { ...this.writer.digests }
        : { ahead: 0, linked: 0, here: 0 };
    return { ...this.committer.stats(), digests };
  }

  /** Commits pending appends, ends every subscription, closes the file. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.committer.flushNow();
    this.writer.close();
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    this.notifier.close();
    this.db.close();
  }

  /**
   * Every `$all` subscriber of the process (the projection runner, each reactor, the live
   * feeds) is woken by the same commit and reads the same page after the same position, then
   * finds nothing more after it: the rows are read and parsed once for all of them. A page is
   * shared only under the same mark, so never across a commit (ours, or another process's,
   * which `mark()` notices). Subscribers get the same event objects; they only read them.
   */
  private readAllPage(cursor: number, limit: number, mark: number): RecordedEvent[] {
    const last = this.lastAllPage;
    if (last !== undefined && last.mark === mark && last.cursor === cursor) {
      if (last.events.length <= limit) return last.events;
    }
    const events = this.table.readAll(cursor + 1, true, limit);
    this.lastAllPage = { mark, cursor, events };
    return events;
  }

  private track(subscription: PagedSubscription): PagedSubscription {
    this.subscriptions.add(subscription);
    return subscription;
  }

  /**
   * Runs a synchronous read now, at the call, as the port's promise (a throw in the executor
   * becomes the rejection); refuses once the store is closed.
   */
  private run<T>(read: () => T): Promise<T> {
    return new Promise<T>((resolve) => {
      this.assertOpen();
      resolve(read());
    });
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('the event store is closed');
  }
}
