import { Forge, ForgeError, ForgeItem, ForgePr, PrRef, prId } from './forge.port';

/** A PR attached to a session, as the read model lists them. */
export interface AttachedPr extends PrRef {
  sessionId: string;
}

/** What the poller logs with (Nest's `Logger` is one). */
export interface ForgeLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface PrPollerOptions {
  /** Read on every poll, so a token set or removed at run time takes effect; null: no polling. */
  forge: () => Forge | null;
  /** Pause between the end of one round and the start of the next. */
  intervalMs: number;
  listAttached: () => Promise<AttachedPr[]>;
  /** Called with the PR and all its items when they differ from what this session last got. */
  onUpdate: (sessionId: string, pr: ForgePr, items: ForgeItem[]) => Promise<void>;
  logger: ForgeLogger;
}

interface Job {
  ref: PrRef;
  sessions: Set<string>;
  done: Promise<void>;
}

const DEFAULT_RATE_LIMIT_PAUSE_MS = 60_000;

/**
 * Polls the PRs attached to sessions: one round at a time, one PR after another, the next round
 * `intervalMs` after the previous one ended. A PR is never polled twice at once: a poll asked
 * for while one runs (a webhook, `pollNow`) waits for it, and several such asks share one poll.
 * A PR attached to several sessions is read once per poll for all of them. On RATE_LIMITED
 * nothing is polled until the limit resets; any other failure is logged (once per PR until it
 * changes) and the rounds go on. `onUpdate` is skipped when nothing changed since that session's
 * last successful update (this process's memory: after a restart every PR is delivered again).
 */
export class PrPoller {
  private started = false;
  private closed = false;
  private loop = 0;
  private timer: NodeJS.Timeout | null = null;
  private round: Promise<void> | null = null;
  private pausedUntil = 0;
  private forgeMissingLogged = false;
  private readonly queued = new Map<string, Job>();
  private readonly active = new Map<string, Promise<void>>();
  private readonly delivered = new Map<string, string>();
  private readonly failing = new Map<string, string>();

  constructor(private readonly options: PrPollerOptions) {}

  /** Starts the rounds; the first one begins at once. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.closed = false;
    this.loop++;
    this.schedule(0, this.loop);
  }

  /** Stops the rounds, drops queued polls and resolves once the ones running have ended. */
  async stop(): Promise<void> {
    this.started = false;
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const jobs = [...this.queued.values()].map((j) => j.done);
    await Promise.allSettled([this.round, ...this.active.values(), ...jobs]);
  }

  /**
   * Polls now: every attached PR, those of one session, or one PR (for all its sessions, or
   * only `sessionId`'s). Resolves when done; never rejects. Does nothing while rate-limited.
   */
  async pollNow(sessionId?: string, ref?: PrRef): Promise<void> {
    if (this.closed || this.paused() || !this.currentForge()) return;
    let attached: AttachedPr[];
    try {
      attached = await this.options.listAttached();
    } catch (e) {
      this.options.logger.error(`PR polling: could not list the attached PRs: ${messageOf(e)}`);
      return;
    }
    const full = sessionId === undefined && ref === undefined;
    if (full) this.forgetDetached(attached);
    const wanted = attached.filter(
      (a) =>
        (sessionId === undefined || a.sessionId === sessionId) &&
        (ref === undefined || keyOf(a) === keyOf(ref)),
    );
    for (const [key, group] of groupByPr(wanted)) {
      if (this.closed || this.paused()) break;
      await this.enqueue(key, group.ref, group.sessions);
    }
  }

  private schedule(delayMs: number, loop: number): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      this.round = this.pollNow()
        .catch((e: unknown) => this.options.logger.error(`PR polling: ${stackOf(e)}`))
        .then(() => {
          if (this.started && loop === this.loop) this.schedule(this.nextDelay(), loop);
        });
    }, delayMs);
  }

  private nextDelay(): number {
    return Math.max(this.options.intervalMs, this.pausedUntil - Date.now());
  }

  private paused(): boolean {
    return Date.now() < this.pausedUntil;
  }

  private currentForge(): Forge | null {
    const forge = this.options.forge();
    if (!forge && !this.forgeMissingLogged) {
      this.options.logger.warn(
        'PR polling: no forge configured (no GitHub token?); PRs are not polled',
      );
    }
    this.forgeMissingLogged = !forge;
    return forge;
  }

  /** The PR's next poll: queued behind the running one, shared with asks already queued. */
  private enqueue(key: string, ref: PrRef, sessions: string[]): Promise<void> {
    const queued = this.queued.get(key);
    if (queued) {
      sessions.forEach((s) => queued.sessions.add(s));
      return queued.done;
    }
    const before = this.active.get(key) ?? Promise.resolve();
    const job: Job = { ref, sessions: new Set(sessions), done: Promise.resolve() };
    job.done = before.then(() => this.run(key, job));
    this.queued.set(key, job);
    return job.done;
  }

  private async run(key: string, job: Job): Promise<void> {
    this.queued.delete(key);
    const running = this.pollPr(key, job).catch((e: unknown) => {
      this.options.logger.error(`PR polling: ${prId(job.ref)} failed: ${stackOf(e)}`);
    });
    this.active.set(key, running);
    await running;
    if (this.active.get(key) === running) this.active.delete(key);
  }

  private async pollPr(key: string, job: Job): Promise<void> {
    const forge = this.closed || this.paused() ? null : this.options.forge();
    if (!forge) return;
    let pr: ForgePr;
    let items: ForgeItem[];
    try {
      pr = await forge.getPr(job.ref);
      items = await forge.listItems(pr);
    } catch (e) {
      this.failed(key, job.ref, e);
      return;
    }
    if (this.failing.delete(key))
      this.options.logger.log(`PR polling: ${prId(job.ref)} answers again`);
    for (const sessionId of job.sessions) {
      if (this.closed) return;
      await this.deliver(sessionId, key, pr, items);
    }
  }

  private async deliver(sessionId: string, key: string, pr: ForgePr, items: ForgeItem[]) {
    const seenKey = `${sessionId} ${key}`;
    const print = JSON.stringify([pr, items]);
    if (this.delivered.get(seenKey) === print) return;
    try {
      await this.options.onUpdate(sessionId, pr, items);
      this.delivered.set(seenKey, print);
    } catch (e) {
      this.options.logger.error(
        `PR polling: updating session ${sessionId} with ${prId(pr)} failed: ${stackOf(e)}`,
      );
    }
  }

  private failed(key: string, ref: PrRef, e: unknown): void {
    const { logger } = this.options;
    if (e instanceof ForgeError && e.code === 'RATE_LIMITED') {
      this.pausedUntil = e.retryAt?.getTime() ?? Date.now() + DEFAULT_RATE_LIMIT_PAUSE_MS;
      logger.warn(
        `PR polling paused until ${new Date(this.pausedUntil).toISOString()}: ${e.message}`,
      );
      return;
    }
    const message = e instanceof ForgeError ? e.message : stackOf(e);
    if (this.failing.get(key) === message) return;
    this.failing.set(key, message);
    if (e instanceof ForgeError) logger.warn(`PR polling: ${prId(ref)}: ${message}`);
    else logger.error(`PR polling: ${prId(ref)} failed: ${message}`);
  }

  /** Forgets what was delivered for PRs no longer attached, so a re-attach is delivered again. */
  private forgetDetached(attached: AttachedPr[]): void {
    const live = new Set(attached.map((a) => `${a.sessionId} ${keyOf(a)}`));
    for (const seenKey of this.delivered.keys()) {
      if (!live.has(seenKey)) this.delivered.delete(seenKey);
    }
    const prs = new Set(attached.map(keyOf));
    for (const key of this.failing.keys()) if (!prs.has(key)) this.failing.delete(key);
  }
}

/** GitHub's owner and repository names are case-insensitive. */
function keyOf(ref: PrRef): string {
  return prId(ref).toLowerCase();
}

function groupByPr(attached: AttachedPr[]): Map<string, { ref: PrRef; sessions: string[] }> {
  const groups = new Map<string, { ref: PrRef; sessions: string[] }>();
  for (const a of attached) {
    const key = keyOf(a);
    const group = groups.get(key) ?? {
      ref: { owner: a.owner, repo: a.repo, number: a.number },
      sessions: [],
    };
    if (!group.sessions.includes(a.sessionId)) group.sessions.push(a.sessionId);
    groups.set(key, group);
  }
  return groups;
}

function messageOf(e: unknown): string {
  const message = (e as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : String(e);
}

function stackOf(e: unknown): string {
  const stack = (e as { stack?: unknown } | null)?.stack;
  return typeof stack === 'string' ? stack : messageOf(e);
}
