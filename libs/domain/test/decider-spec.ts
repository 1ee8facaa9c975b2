import {
  fold,
  isDomainError,
  type Command,
  type Decider,
  type DomainEvent,
  type ErrorCode,
} from '../src';

/**
 * Given/when/then for deciders (after oskardudycz's DeciderSpecification):
 *
 *   DeciderSpecification.for(decider).given([...events]).when(command).then([...events])
 *
 * `then` also folds the decided events, so an event that `evolve` cannot take fails the test.
 */
export interface DeciderThen<E> {
  then(expected: readonly E[]): void;
  /** The command is refused with this code; `message` (substring or pattern) checks the why. */
  thenThrows(code: ErrorCode, message?: string | RegExp): void;
  /** Accepted, but nothing changes: no event. */
  thenNothing(): void;
}

export interface DeciderWhen<C, E> {
  when(command: C): DeciderThen<E>;
}

export interface DeciderGiven<C, E> {
  given(events: readonly E[]): DeciderWhen<C, E>;
}

function refusal(decide: () => unknown): unknown {
  try {
    return new Error(`it was accepted and decided ${JSON.stringify(decide())}`);
  } catch (error) {
    return error;
  }
}

function thenFor<C extends Command, E extends DomainEvent, S>(
  decider: Decider<C, E, S>,
  history: readonly E[],
  command: C,
): DeciderThen<E> {
  const decide = () => decider.decide(command, fold(decider, history));
  return {
    then(expected) {
      const events = decide();
      expect(events).toEqual(expected);
      expect(() => fold(decider, [...history, ...events])).not.toThrow();
    },
    thenThrows(code, message) {
      const error = refusal(decide);
      if (!isDomainError(error)) throw new Error(`expected DomainError ${code}: ${String(error)}`);
      expect(error.code).toBe(code);
      if (message !== undefined) expect(error.message).toMatch(message);
    },
    thenNothing() {
      expect(decide()).toEqual([]);
    },
  };
}

export const DeciderSpecification = {
  for<C extends Command, E extends DomainEvent, S>(decider: Decider<C, E, S>): DeciderGiven<C, E> {
    return {
      given: (history) => ({ when: (command) => thenFor(decider, history, command) }),
    };
  },
};
