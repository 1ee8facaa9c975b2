/**
 * Tells caught-up subscriptions that there may be something new to read.
 *
 * Commits made through this store wake them at once. Commits made by another process on the
 * same file are noticed by polling `PRAGMA data_version`, which changes exactly when another
 * connection has committed; the poll runs only while some subscription is waiting.
 *
 * The protocol is a generation counter: a reader takes `mark()` BEFORE it reads, and after an
 * empty read waits with that mark. Anything committed after the mark moves the generation on,
 * so the wait returns at once instead of missing it.
 */
export class ChangeNotifier {
  private generation = 0;
  private lastDataVersion: number;
  private readonly waiters = new Set<() => void>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly dataVersion: () => number,
    private readonly pollMs: number,
  ) {
    this.lastDataVersion = dataVersion();
  }

  /** Takes a mark before reading; checks for commits by other processes on the way. */
  mark(): number {
    this.checkOtherProcesses();
    return this.generation;
  }

  /** Something was committed: wake every waiter. */
  notify(): void {
    this.generation++;
    const woken = [...this.waiters];
    this.waiters.clear();
    this.stopPollingIfIdle();
    for (const wake of woken) wake();
  }

  /**
   * Resolves once anything has been committed after `mark`, or when `cancel` is called by the
   * returned handle's owner (a closing subscription).
   */
  wait(mark: number): { done: Promise<void>; cancel(): void } {
    if (mark !== this.generation) return { done: Promise.resolve(), cancel: () => undefined };
    let wake!: () => void;
    const done = new Promise<void>((resolve) => {
      wake = resolve;
    });
    this.waiters.add(wake);
    this.startPolling();
    const cancel = (): void => {
      this.waiters.delete(wake);
      this.stopPollingIfIdle();
      wake();
    };
    return { done, cancel };
  }

  /** Stops polling and wakes everyone (the store is closing). */
  close(): void {
    this.notify();
    this.stopPollingIfIdle();
  }

  private checkOtherProcesses(): void {
    const version = this.dataVersion();
    if (version === this.lastDataVersion) return;
    this.lastDataVersion = version;
    this.notify();
  }

  private startPolling(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => this.checkOtherProcesses(), this.pollMs);
  }

  private stopPollingIfIdle(): void {
    if (this.waiters.size > 0 || this.timer === undefined) return;
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
