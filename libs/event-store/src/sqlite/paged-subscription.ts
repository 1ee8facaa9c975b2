/**
 * A catch-up subscription that is nothing but a cursor over the table.
 *
 * There is no separate "live" mode: history and new events are read the same way, a page at a
 * time after the last delivered event, so the switch from catching up to live cannot skip or
 * repeat anything. The reader pulls: a slow consumer holds at most one page in memory, and
 * events it has not asked for yet stay on disk.
 */
import type { RecordedEvent, Subscription } from '../event-store.port';
import type { ChangeNotifier } from './change-notifier';

/**
 * Reads up to `limit` events after `cursor`, in order. `mark` is the notifier's generation
 * taken just before: a read may be shared by every reader with the same mark and cursor.
 */
export type PageReader = (cursor: number, limit: number, mark: number) => RecordedEvent[];

/** Large enough that a catch-up over millions of events is not dominated by per-query cost. */
const PAGE_SIZE = 500;

/**
 * Iterate it with `for await`; one consumer at a time. `close()` (or leaving the loop) ends the
 * iteration, also while it waits for new events.
 */
export class PagedSubscription implements Subscription, AsyncIterator<RecordedEvent> {
  private page: RecordedEvent[] = [];
  private index = 0;
  private closed = false;
  private waiting: { cancel(): void } | undefined;

  constructor(
    private readonly readPage: PageReader,
    /** Position (or revision) of the last event already seen; reading starts after it. */
    private cursor: number,
    private readonly cursorOf: (event: RecordedEvent) => number,
    private readonly notifier: ChangeNotifier,
    private readonly onClose: (subscription: PagedSubscription) => void,
  ) {}

  [Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    return this;
  }

  async next(): Promise<IteratorResult<RecordedEvent>> {
    while (!this.closed) {
      if (this.index < this.page.length) {
        const event = this.page[this.index++];
        this.cursor = this.cursorOf(event);
        return { value: event, done: false };
      }
      const mark = this.notifier.mark();
      this.page = this.readPage(this.cursor, PAGE_SIZE, mark);
      this.index = 0;
      if (this.page.length === 0) await this.waitFor(mark);
    }
    return { value: undefined, done: true };
  }

  async return(): Promise<IteratorResult<RecordedEvent>> {
    await this.close();
    return { value: undefined, done: true };
  }

  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.page = [];
      this.waiting?.cancel();
      this.onClose(this);
    }
    return Promise.resolve();
  }

  private async waitFor(mark: number): Promise<void> {
    const wait = this.notifier.wait(mark);
    this.waiting = wait;
    try {
      await wait.done;
    } finally {
      this.waiting = undefined;
    }
  }
}
