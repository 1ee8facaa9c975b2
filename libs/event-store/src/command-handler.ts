import { createHash } from 'node:crypto';
import {
  DomainError,
  ErrorCode,
  type Command,
  type Decider,
  type DomainEvent,
} from '@sessionboxer/domain';
import {
  ConcurrencyError,
  type EventStore,
  type NewEvent,
  type RecordedEvent,
} from './event-store.port';
import { advance, emptyFold, StreamStateCache } from './stream-state-cache';

/** What a command did: its events (first run or, for a repeated command id, the original ones). */
export interface CommandResult<S> {
  streamName: string;
  /** The events this command id appended, as recorded. Empty when it decided nothing. */
  events: RecordedEvent[];
  /** The aggregate's state after those events. */
  state: S;
  /** Revision of the stream's last event after the command (-1: no stream). */
  revision: number;
  /** Global position of the command's last event; the position read models must reach. */
  position: number | null;
  /** True when this command id had already been handled and nothing new was appended. */
  replayed: boolean;
}

export interface CommandHandlerOptions {
  /** How often a command is re-decided after losing a race on its stream. */
  maxAttempts?: number;
  /** Streams whose folded state is kept between commands (0: read every stream whole). */
  cachedStreams?: number;
}

/**
 * The one command pipeline: read the stream, fold, decide, append with the expected revision,
 * and on a concurrency conflict start again from a fresh read.
 *
 * Idempotency lives in the stream itself, so it holds whatever the adapter: every event carries
 * the id of the command that caused it, and a command whose id is already in its stream returns
 * the events it appended then and appends nothing. Event ids are derived from the command id, so
 * two copies of one command racing each other append one set of events (the store's idempotent
 * re-append), never two. A refused command appends nothing and is simply decided again.
 */
export class CommandHandler {
  private readonly maxAttempts: number;
  private readonly cache: StreamStateCache;
  /** Counters for benchmarks and health: commands handled, and races lost then re-decided. */
  readonly stats = { commands: 0, conflicts: 0 };

  constructor(
    private readonly store: EventStore,
    options: CommandHandlerOptions = {},
  ) {
    this.maxAttempts = options.maxAttempts ?? 20;
    this.cache = new StreamStateCache(options.cachedStreams ?? 1_000);
  }

  async handle<C extends Command, E extends DomainEvent, S>(
    decider: Decider<C, E, S>,
    streamName: string,
    command: C,
  ): Promise<CommandResult<S>> {
    this.stats.commands++;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt(decider, streamName, command);
      } catch (e) {
        if (!(e instanceof ConcurrencyError)) throw e;
        this.stats.conflicts++;
        if (attempt >= this.maxAttempts) {
          throw new DomainError(
            ErrorCode.Conflict,
            `${streamName} kept changing while ${command.type} was decided (${attempt} attempts); try again`,
          );
        }
      }
    }
  }

  private async attempt<C extends Command, E extends DomainEvent, S>(
    decider: Decider<C, E, S>,
    streamName: string,
    command: C,
  ): Promise<CommandResult<S>> {
    // Only what was appended since the last command on this stream is read (see the cache).
    const folded = this.cache.get(streamName, decider) ?? emptyFold(decider.initialState);
    const fresh = await this.store.readStream(streamName, { fromRevision: folded.revision + 1 });
    advance(decider, folded, fresh);
    this.cache.set(streamName, decider, folded);
    const { state, revision } = folded;
    const earlier = folded.commands.get(command.metadata.commandId);
    if (earlier !== undefined) {
      const events = await this.store.readStream(streamName, {
        fromRevision: earlier.first,
        maxCount: earlier.last - earlier.first + 1,
      });
      const own = events.filter((e) => e.metadata.commandId === command.metadata.commandId);
      return {
        streamName,
        events: own,
        state,
        revision,
        position: earlier.position,
        replayed: true,
      };
    }
    const decided = decider.decide(command, state);
    if (decided.length === 0) {
      return { streamName, events: [], state, revision, position: null, replayed: false };
    }
    const toAppend = decided.map((e, i) => toNewEvent(e, i, streamName, command));
    const result = await this.store.appendToStream(streamName, toAppend, {
      expectedRevision: revision === -1 ? 'no_stream' : revision,
    });
    const first = result.nextExpectedRevision - toAppend.length + 1;
    const events = await this.store.readStream(streamName, {
      fromRevision: first,
      maxCount: toAppend.length,
    });
    // The cached fold takes the recorded events; unless another command on this stream moved
    // it meanwhile, it then holds exactly this command's new state, folded once, not twice.
    const untouched = folded.revision === revision;
    advance(decider, folded, events);
    const newState =
      untouched && folded.revision === result.nextExpectedRevision
        ? folded.state
        : decided.reduce((s, e) => decider.evolve(s, e), state);
    return {
      streamName,
      events,
      state: newState,
      revision: result.nextExpectedRevision,
      position: result.position,
      replayed: false,
    };
  }
}

function toNewEvent(
  event: DomainEvent,
  index: number,
  streamName: string,
  command: Command,
): NewEvent {
  const m = command.metadata;
  return {
    id: deterministicUuid(`${m.commandId}/${streamName}/${index}`),
    type: event.type,
    data: event.data,
    metadata: {
      commandId: m.commandId,
      correlationId: m.correlationId ?? m.commandId,
      causationId: m.causationId ?? m.commandId,
      actor: m.actor,
      at: m.at,
    },
  };
}

/** A name-based UUID (RFC 9562 version 8 layout over SHA-256), stable for the same input. */
export function deterministicUuid(name: string): string {
  const h = createHash('sha256').update(name).digest();
  h[6] = (h[6] & 0x0f) | 0x80;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
