/**
 * The client's catch-up subscription (a Node stream) as the port's Subscription.
 *
 * The client's `unsubscribe()` cancels the gRPC call but does not end the stream it returned,
 * so iterating that stream would never finish; this wrapper ends its own iteration on close.
 * Backpressure is the stream's: events are pulled one at a time, and gRPC flow control slows
 * the server when the consumer lags.
 */
import type { AllStreamResolvedEvent, ResolvedEvent } from '@eventstore/db-client';
import type { RecordedEvent, Subscription } from '../event-store.port';
import { fromResolvedEvent } from './esdb-mapping';

/** What the wrapper needs of the client's StreamSubscription / AllStreamSubscription. */
export interface ClientSubscription {
  unsubscribe(): Promise<void>;
  destroy(): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
  [Symbol.asyncIterator](): AsyncIterator<ResolvedEvent | AllStreamResolvedEvent>;
}

const DONE: IteratorReturnResult<undefined> = { value: undefined, done: true };

/** See the file comment. One consumer at a time. */
export class EsdbSubscription implements Subscription, AsyncIterator<RecordedEvent> {
  private readonly inner: AsyncIterator<ResolvedEvent | AllStreamResolvedEvent>;
  private closed = false;
  private signalClosed!: () => void;
  private readonly closedSignal = new Promise<typeof DONE>((resolve) => {
    this.signalClosed = () => resolve(DONE);
  });

  constructor(
    private readonly source: ClientSubscription,
    private readonly onClose: () => void = () => undefined,
  ) {
    // An error emitted before the first next() would otherwise crash the process; the
    // iterator still reports it, because the stream stays errored.
    source.on('error', () => undefined);
    this.inner = source[Symbol.asyncIterator]();
  }

  [Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    return this;
  }

  async next(): Promise<IteratorResult<RecordedEvent>> {
    while (!this.closed) {
      const pending = this.inner.next();
      // Once closed, the losing read may still reject (premature close): nobody awaits it.
      pending.catch(() => undefined);
      const result = await Promise.race([pending, this.closedSignal]);
      if (result.done) {
        await this.close();
        break;
      }
      const event = fromResolvedEvent(result.value);
      if (event) return { value: event, done: false };
    }
    return DONE;
  }

  async return(): Promise<IteratorResult<RecordedEvent>> {
    await this.close();
    return DONE;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.signalClosed();
    this.onClose();
    try {
      await this.source.unsubscribe();
    } finally {
      this.source.destroy();
    }
  }
}
