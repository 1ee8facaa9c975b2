/**
 * The scale-out adapter: EventStoreDB through @eventstore/db-client. EventStoreDB already has
 * the port's semantics; this class translates types and errors (esdb-mapping.ts) and hides
 * system events, which the port does not know about.
 */
import {
  EventStoreDBClient,
  excludeSystemEvents,
  type AllStreamSubscription,
  type ResolvedEvent,
} from '@eventstore/db-client';
import { validateAppend, type SerializedEvent } from '../append-validation';
import {
  ConcurrencyError,
  IdempotencyError,
  type AppendOptions,
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeToAllOptions,
  type SubscribeToStreamOptions,
  type Subscription,
} from '../event-store.port';
import { checkSubscriptionStart, resolveRead } from '../read-options';
import {
  fromResolvedEvent,
  isStreamNotFound,
  mapAppendError,
  classifyRefusal,
  toAppendExpectedRevision,
  toEventData,
  toReadPosition,
  toReadRevision,
  toSubscriptionStart,
} from './esdb-mapping';
import { CHAIN_KEY, chainAppend, headOf } from './esdb-chain';
import { lastUserMetadata, lastUserPosition, readAllUserEvents } from './esdb-reads';
import { EsdbSubscription, type ClientSubscription } from './esdb-subscription';

/** How far back a refused append looks for its own ids before calling it a plain conflict. */
const IDEMPOTENCY_LOOKBACK = 1000;

/** The EventStoreDB adapter of the EventStore port. */
export class EventStoreDbEventStore implements EventStore {
  private readonly subscriptions = new Set<Subscription>();
  /** Appends run one after another so each chains from the one before (see esdb-chain.ts). */
  private appending: Promise<unknown> = Promise.resolve();

  constructor(private readonly client: EventStoreDBClient) {}

  /** Connects (lazily, on first call) to e.g. `esdb://localhost:2113?tls=false`. */
  static connect(connectionString: string): EventStoreDbEventStore {
    return new EventStoreDbEventStore(EventStoreDBClient.connectionString(connectionString));
  }

  async appendToStream(
    streamName: string,
    events: readonly NewEvent[],
    options?: AppendOptions,
  ): Promise<AppendResult> {
    const { expected, events: serialized } = validateAppend(streamName, events, options);
    const run = this.appending.then(() =>
      this.appendChained(streamName, events, serialized, expected),
    );
    this.appending = run.catch(() => undefined);
    return run;
  }

  /** One append with its `$chain` links, computed from the head read just before it. */
  private async appendChained(
    streamName: string,
    events: readonly NewEvent[],
    serialized: readonly SerializedEvent[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    const head = headOf(await lastUserMetadata(this.client));
    const [tail] = await this.readStream(streamName, { direction: 'backwards', maxCount: 1 });
    const links = chainAppend(head, streamName, (tail?.revision ?? -1) + 1, serialized);
    const chained = events.map((e, i) =>
      toEventData({ ...e, metadata: { ...e.metadata, [CHAIN_KEY]: links[i] } as EventMetadata }),
    );
    try {
      const result = await this.client.appendToStream(streamName, chained, {
        expectedRevision: toAppendExpectedRevision(expected),
      });
      const nextExpectedRevision = Number(result.nextExpectedRevision);
      // An idempotent repeat comes back without a position: take it from the event itself.
      const position =
        result.position === undefined
          ? await this.positionOf(streamName, nextExpectedRevision)
          : Number(result.position.commit);
      return { streamName, nextExpectedRevision, position };
    } catch (error) {
      const mapped = mapAppendError(error, streamName, expected);
      if (!(mapped instanceof ConcurrencyError)) throw mapped;
      return this.afterRefusal(mapped, streamName, events);
    }
  }

  async readStream(streamName: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const r = resolveRead(options.direction, options.fromRevision, options.maxCount);
    if (r.maxCount === 0) return [];
    const from = r.from === Number.MAX_SAFE_INTEGER ? 'end' : r.from;
    const out: RecordedEvent[] = [];
    try {
      const read = this.client.readStream(streamName, {
        direction: r.forwards ? 'forwards' : 'backwards',
        fromRevision: toReadRevision(from),
        ...(r.maxCount === undefined ? {} : { maxCount: r.maxCount }),
      });
      for await (const resolved of read as AsyncIterable<ResolvedEvent>) {
        const event = fromResolvedEvent(resolved);
        if (event) out.push(event);
      }
    } catch (error) {
      if (isStreamNotFound(error)) return [];
      throw error;
    }
    return out;
  }

  readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    return readAllUserEvents(
      this.client,
      resolveRead(options.direction, options.fromPosition, options.maxCount),
    );
  }

  subscribeToStream(streamName: string, options: SubscribeToStreamOptions = {}): Subscription {
    const from = toSubscriptionStart(checkSubscriptionStart(options.fromRevision ?? 'start'));
    const source = this.client.subscribeToStream(streamName, {
      fromRevision: toReadRevision(from),
    });
    return this.track(source);
  }

  subscribeToAll(options: SubscribeToAllOptions = {}): Subscription {
    const from = toSubscriptionStart(checkSubscriptionStart(options.fromPosition ?? 'start'));
    const source: AllStreamSubscription = this.client.subscribeToAll({
      fromPosition: toReadPosition(from),
      filter: excludeSystemEvents(),
    });
    return this.track(source);
  }

  headPosition(): Promise<number> {
    return lastUserPosition(this.client);
  }

  /** Ends every subscription, then closes the connection. */
  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    await this.client.dispose();
  }

  private track(source: ClientSubscription): Subscription {
    const subscription = new EsdbSubscription(source, () =>
      this.subscriptions.delete(subscription),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  private async positionOf(streamName: string, revision: number): Promise<number> {
    const [event] = await this.readStream(streamName, { fromRevision: revision, maxCount: 1 });
    return event ? event.position : -1;
  }

  /**
   * EventStoreDB answers a wrong expected version both to a real conflict and to a batch that
   * reuses event ids; its own idempotency only covers a retry at the same expected revision or
   * with `any` within its id cache. The stream's tail tells which it was (see classifyRefusal).
   * Only refused appends pay for this read.
   */
  private async afterRefusal(
    refusal: ConcurrencyError,
    streamName: string,
    events: readonly NewEvent[],
  ): Promise<AppendResult> {
    const tail = await this.readStream(streamName, {
      direction: 'backwards',
      maxCount: IDEMPOTENCY_LOOKBACK,
    });
    const verdict = classifyRefusal(events, tail);
    switch (verdict.kind) {
      case 'repeat':
        return {
          streamName,
          nextExpectedRevision: verdict.nextExpectedRevision,
          position: verdict.position,
        };
      case 'reused-ids':
        throw new IdempotencyError(
          streamName,
          `${verdict.count} of the ${events.length} event ids of this append are already in the stream, but not as this same append`,
        );
      case 'conflict':
        throw refusal;
    }
  }
}
