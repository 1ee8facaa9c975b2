/**
 * The jobs port: cron schedules (scheduled tasks, idle timeouts) and delayed one-shot jobs
 * (approval expiry). The embedded default keeps timers in the process
 * (InProcessJobs); scale-out keeps them in Redis through BullMQ (BullmqJobs). Both pass the
 * same contract suite (test/jobs.contract.ts).
 *
 * Who remembers what: the event history is the source of truth. At boot the control plane
 * upserts every schedule and schedules every pending one-shot it finds there, then calls
 * start(). The in-process adapter keeps nothing across restarts, so it learns everything from
 * those calls (and `lastRunAt` tells it what a restart missed); BullMQ also finds what Redis
 * still holds, and `onDataLost` says when Redis lost it so the caller can `rebuild`.
 *
 * Delivery is at least once: a handler may see the same fire twice (a retry after it threw,
 * or a worker that died mid-handler), so handlers must be idempotent, e.g. by issuing a
 * command whose id derives from `${kind}:${id}:${scheduledFor}`.
 */

/** A cron schedule as the caller gives it. */
export interface CronSchedule {
  /** Letters, digits, `.`, `_`, `-` (1–200); upserting an existing id replaces it. */
  id: string;
  /** 5 fields (minute first) or 6 (seconds first), e.g. `0 9 * * 1-5`, `30 * * * * *`. */
  cron: string;
  /** IANA time zone the pattern is read in; 'UTC' when left out. */
  timezone?: string;
  /**
   * The skip policy; true when left out. A run whose time passed while the scheduler was
   * down is not fired: the next fire is the next future occurrence. With false, the single
   * most recent missed occurrence fires once at start, then the schedule goes on as usual.
   */
  skipMissed?: boolean;
  /**
   * The last occurrence that fired (or when the schedule was created, if it never fired), as
   * the event history records it. Used only when the adapter does not know this schedule yet:
   * the in-process adapter after every restart, BullMQ when Redis no longer holds it. Then
   * the missed runs in (lastRunAt, now] follow the skip policy. Without it nothing is caught
   * up; re-upserting a schedule the adapter already holds never catches up either.
   */
  lastRunAt?: Date;
}

/** A cron schedule as the adapter holds it. */
export interface ScheduleInfo {
  id: string;
  cron: string;
  timezone: string;
  skipMissed: boolean;
  /** When it fires next; null when the adapter cannot say (BullMQ between two iterations). */
  nextRunAt: Date | null;
}

/** A delayed one-shot job: fires once, at or after `runAt`. */
export interface DelayedJob {
  /** Same rules as a schedule id; scheduling an existing id replaces the pending job. */
  id: string;
  runAt: Date;
  /** Plain JSON: it goes through Redis on BullMQ. */
  data?: unknown;
}

/** What a handler is told about one fire. */
export interface JobFire {
  kind: 'cron' | 'delayed';
  id: string;
  /** The occurrence (cron) or runAt (delayed) this fire is for. */
  scheduledFor: Date;
  /** When the adapter handed this attempt to the handlers. */
  firedAt: Date;
  /** A delayed job's data; undefined for cron fires. */
  data?: unknown;
}

/** Throwing (or rejecting) asks for a retry: a few attempts with backoff, each logged. */
export type JobHandler = (fire: JobFire) => Promise<void>;

/** What `rebuild` is given: the whole set the event history says should exist. */
export interface JobsSnapshot {
  schedules: CronSchedule[];
  delayed: DelayedJob[];
}

export interface JobsPort {
  /**
   * Adds or replaces a cron schedule. Refuses a bad pattern or time zone with a DomainError
   * (ValidationFailed, field `cron` or `timezone`) whose message says what is wrong. Works
   * before start() (the boot rebuild) and after (a schedule created at runtime).
   */
  upsertSchedule(schedule: CronSchedule): Promise<ScheduleInfo>;
  /** Stops a schedule's fires; false when there was none with this id. */
  removeSchedule(id: string): Promise<boolean>;
  listSchedules(): Promise<ScheduleInfo[]>;
  /** The next fire of one schedule; null for an unknown id. */
  nextRun(id: string): Promise<Date | null>;

  /** Schedules a one-shot; the same id again replaces it. A runAt in the past fires at once. */
  schedule(job: DelayedJob): Promise<void>;
  /** Prevents a pending one-shot from firing; false when none was pending. */
  cancel(id: string): Promise<boolean>;

  /** Adds a handler; every fire goes to every handler. Returns a function that removes it. */
  onFire(handler: JobHandler): () => void;

  /**
   * Replaces every schedule and one-shot with `snapshot` (what the event history holds),
   * applying the skip policy to what was missed meanwhile, as a restart would.
   */
  rebuild(snapshot: JobsSnapshot): Promise<void>;
  /**
   * Called when the store behind the adapter lost its data (Redis flushed or restarted
   * without persistence): the caller answers with `rebuild`. The in-process adapter never
   * calls it: its state lives and dies with the process.
   */
  onDataLost(listener: () => void | Promise<void>): () => void;

  /**
   * Begins firing: applies the skip policy to missed runs and fires the one-shots that fell
   * due while down. Register handlers first: a fire with no handler is logged and dropped.
   */
  start(): Promise<void>;
  /** Stops timers, workers and connections; waits for handlers already running. */
  close(): Promise<void>;
}

/** Retry of a handler that threw: `attempts` in all, the n-th retry after backoffMs × 2^(n-1). */
export interface RetryPolicy {
  attempts: number;
  backoffMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, backoffMs: 1000 };

/** Where adapters report handler failures and skipped runs (Nest's Logger fits). */
export interface JobsLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}
