import {
  assertNever,
  DomainError,
  ErrorCode,
  type Command,
  type Decider,
  type DomainEvent,
} from '../kernel';
import { exactId, has, integer } from '../kernel/validation';

/**
 * The alive sessions agents created, counted where the limit must hold: the 3 alive children
 * of one creating agent in `children-<creatorSessionId>`, the global cap on agent-created
 * sessions in `agent-sessions-global`. Each is one stream, so concurrent creators race on its
 * expected revision and the limit holds however many commands arrive at once. A place is
 * taken before the session is created and given back when it stops (or its creation fails).
 */
export type TakePlace = Command<
  'TakePlace',
  { ledger: string; sessionId: string; cap: number; title: string }
>;

export type FreePlace = Command<'FreePlace', { ledger: string; sessionId: string; reason: string }>;

export type LedgerCommand = TakePlace | FreePlace;

export type PlaceTaken = DomainEvent<
  'PlaceTaken',
  { ledger: string; sessionId: string; title: string; alive: number; cap: number; at: string }
>;

export type PlaceFreed = DomainEvent<
  'PlaceFreed',
  { ledger: string; sessionId: string; reason: string; alive: number; at: string }
>;

export type LedgerEvent = PlaceTaken | PlaceFreed;

export interface LedgerState {
  /** Alive session id → its title when the place was taken. */
  alive: Readonly<Record<string, string>>;
}

/** The per-creator limit of the spec. */
export const CHILDREN_MAX = 3;
export const GLOBAL_LEDGER = 'agent-sessions-global';

export function childrenLedger(creatorSessionId: string): string {
  return `children-${exactId(creatorSessionId, 'sessionId')}`;
}

export function isLedgerEvent(event: { type: string }): event is LedgerEvent {
  return event.type === 'PlaceTaken' || event.type === 'PlaceFreed';
}

function refusal(ledger: string, cap: number, alive: LedgerState['alive']): DomainError {
  const names = Object.values(alive)
    .map((t) => `“${t}”`)
    .join(', ');
  const count = Object.keys(alive).length;
  const message =
    ledger === GLOBAL_LEDGER
      ? `the global cap of ${cap} agent-created sessions is reached: ${count} are alive (Global settings → MCP & connectors → sessionboxer); stop one first`
      : `this agent already has ${count} alive sessions it created (${names}), the most there may be; session_stop one first`;
  return new DomainError(ErrorCode.LimitReached, message, { ledger, cap });
}

function decide(command: LedgerCommand, state: LedgerState): LedgerEvent[] {
  const { data, metadata } = command;
  const sessionId = exactId(data.sessionId, 'sessionId');
  const count = Object.keys(state.alive).length;
  switch (command.type) {
    case 'TakePlace': {
      if (has(state.alive, sessionId)) return [];
      const cap = integer(command.data.cap, 'cap', 0, 1000);
      if (count >= cap) throw refusal(data.ledger, cap, state.alive);
      const title = command.data.title;
      return [
        {
          type: 'PlaceTaken',
          data: { ledger: data.ledger, sessionId, title, alive: count + 1, cap, at: metadata.at },
        },
      ];
    }
    case 'FreePlace':
      if (!has(state.alive, sessionId)) return [];
      return [
        {
          type: 'PlaceFreed',
          data: {
            ledger: data.ledger,
            sessionId,
            reason: command.data.reason,
            alive: count - 1,
            at: metadata.at,
          },
        },
      ];
    default:
      return assertNever(command);
  }
}

function evolve(state: LedgerState, event: LedgerEvent): LedgerState {
  const alive = { ...state.alive };
  if (event.type === 'PlaceTaken') alive[event.data.sessionId] = event.data.title;
  else delete alive[event.data.sessionId];
  return { alive };
}

export const ledgerDecider: Decider<LedgerCommand, LedgerEvent, LedgerState> = {
  decide,
  evolve,
  initialState: { alive: {} },
};
