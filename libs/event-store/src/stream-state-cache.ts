import type { Command, Decider, DomainEvent } from '@sessionboxer/domain';
import type { RecordedEvent } from './event-store.port';

/** A stream folded up to `revision`, with where each command id's events sit in it. */
export interface FoldedStream<S> {
  revision: number;
  state: S;
  /** Command id → revisions of its first and last event in the stream. */
  commands: Map<string, { first: number; last: number; position: number }>;
}

interface Entry {
  decider: unknown;
  folded: FoldedStream<unknown>;
}

/**
 * Folded states of recently used streams, so a command reads only the events appended since
 * the last one instead of the whole stream (a conversation grows by thousands of events).
 * Correct with other writers too: events up to a revision never change, and every attempt
 * reads forward from the cached revision before it decides. Least recently used go first.
 */
export class StreamStateCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly capacity = 1_000) {}

  get<S>(stream: string, decider: Decider<Command, DomainEvent, S>): FoldedStream<S> | null {
    const entry = this.entries.get(stream);
    if (!entry || entry.decider !== decider) return null;
    this.entries.delete(stream);
    this.entries.set(stream, entry);
    return entry.folded as FoldedStream<S>;
  }

  set<S>(stream: string, decider: Decider<Command, DomainEvent, S>, folded: FoldedStream<S>): void {
    if (this.capacity === 0) return;
    this.entries.delete(stream);
    this.entries.set(stream, { decider, folded });
    if (this.entries.size > this.capacity) {
      this.entries.delete(this.entries.keys().next().value as string);
    }
  }
}

/** An empty fold: the stream before its first event. */
export function emptyFold<S>(initialState: S): FoldedStream<S> {
  return { revision: -1, state: initialState, commands: new Map() };
}

/**
 * Folds `events` into `folded` IN PLACE, skipping any it already holds (two commands on one
 * stream may read the same new events): a fold only ever holds committed facts, so sharing it
 * between concurrent commands is safe, and the fold is synchronous, so nobody sees it half done.
 */
export function advance<S>(
  decider: Pick<Decider<Command, DomainEvent, S>, 'evolve'>,
  folded: FoldedStream<S>,
  events: readonly RecordedEvent[],
): void {
  for (const event of events) {
    if (event.revision <= folded.revision) continue;
    folded.state = decider.evolve(folded.state, event);
    folded.revision = event.revision;
    const id = event.metadata.commandId;
    const seen = folded.commands.get(id);
    folded.commands.set(id, {
      first: seen?.first ?? event.revision,
      last: event.revision,
      position: event.position,
    });
  }
}
