import type { Actor } from './actor';

/**
 * What every command carries besides its data. Time and ids come from here, never from a
 * clock or a random source inside the domain, so a decider is a pure function.
 */
export interface CommandMetadata {
  commandId: string;
  /** ISO-8601 time at which the command was accepted. */
  at: string;
  actor: Actor;
  correlationId?: string;
  causationId?: string;
}

/** A domain event as a decider sees it: plain JSON, past tense `type`. */
export interface DomainEvent<T extends string = string, D = unknown> {
  type: T;
  data: D;
}

export interface Command<T extends string = string, D = unknown> {
  type: T;
  data: D;
  metadata: CommandMetadata;
}

/**
 * An aggregate: `decide` turns a command and the folded state into new events (or throws a
 * DomainError), `evolve` folds one event into the state. Both pure.
 */
export interface Decider<C extends Command, E extends DomainEvent, S> {
  decide(command: C, state: S): E[];
  evolve(state: S, event: E): S;
  initialState: S;
}

export function fold<E extends DomainEvent, S>(
  decider: Pick<Decider<Command, E, S>, 'evolve' | 'initialState'>,
  events: readonly E[],
): S {
  return events.reduce((s, e) => decider.evolve(s, e), decider.initialState);
}

/** For the `default:` branch of an exhaustive switch. */
export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`);
}
