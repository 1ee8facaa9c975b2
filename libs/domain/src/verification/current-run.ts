import {
  assertNever,
  DomainError,
  ErrorCode,
  type Command,
  type Decider,
  type DomainEvent,
} from '../kernel';
import { exactId, has } from '../kernel/validation';
import { validRunId } from './verification.validation';

/*
 * Which Auto QA run is a session's current one, decided on the write side.
 *
 * A run's cases live in its own stream (`verification-<runId>`), but the e2e tools name no run:
 * they act on "the session's open run". That needs one place per session that says which run
 * it is, so this small stream, `verifications-<sessionId>`, holds the session's current run id.
 * A new run becomes current by compare-and-set: the command names the run it replaces, and is
 * refused when another run became current meanwhile (two opens racing: one wins, the other is
 * told). Whoever opens a run first checks, in the replaced run's own stream, that it is closed
 * (or was never opened); a closed run stays closed, so with the CAS no session ever has two
 * open runs. Closing a run writes only its own stream: the pointer needs no second write that a
 * crash could lose. Rejected: one stream per session for all its runs (every run's cases in one
 * ever-growing stream), and a run id derived from the session (it could not tell runs apart).
 */

export type SetCurrentVerificationRun = Command<
  'SetCurrentVerificationRun',
  { sessionId: string; runId: string; replacing: string | null }
>;

export type CurrentVerificationRunSet = DomainEvent<
  'CurrentVerificationRunSet',
  { sessionId: string; runId: string; previousRunId: string | null; at: string }
>;

export interface CurrentRunState {
  current: string | null;
  /** Every run that was ever current: an old run is never made current again. */
  runs: Readonly<Record<string, true>>;
}

export const initialCurrentRunState: CurrentRunState = { current: null, runs: {} };

export function sessionVerificationsStream(sessionId: string): string {
  return `verifications-${exactId(sessionId, 'sessionId')}`;
}

export function isCurrentRunEvent(event: {
  type: string;
  data: unknown;
}): event is CurrentVerificationRunSet {
  return event.type === 'CurrentVerificationRunSet';
}

function setCurrent(
  command: SetCurrentVerificationRun,
  state: CurrentRunState,
): CurrentVerificationRunSet[] {
  const { data, metadata } = command;
  const sessionId = exactId(data.sessionId, 'sessionId');
  const runId = validRunId(data.runId);
  const replacing = data.replacing === null ? null : validRunId(data.replacing);
  if (state.current === runId) return [];
  if (has(state.runs, runId)) {
    throw new DomainError(
      ErrorCode.AlreadyExists,
      `verification run ${runId} was this session's run before; a new run needs a new id`,
      { runId },
    );
  }
  if (state.current !== replacing) {
    throw new DomainError(
      ErrorCode.Conflict,
      `verification run ${state.current ?? '(none)'} became this session's current run while run ${runId} was being opened; see whoami's verification before opening another`,
      { runId, current: state.current },
    );
  }
  const event = { sessionId, runId, previousRunId: state.current, at: metadata.at };
  return [{ type: 'CurrentVerificationRunSet', data: event }];
}

function decide(command: SetCurrentVerificationRun, state: CurrentRunState) {
  switch (command.type) {
    case 'SetCurrentVerificationRun':
      return setCurrent(command, state);
    default:
      return assertNever(command.type);
  }
}

function evolve(state: CurrentRunState, event: CurrentVerificationRunSet): CurrentRunState {
  switch (event.type) {
    case 'CurrentVerificationRunSet': {
      const { runId } = event.data;
      return { current: runId, runs: { ...state.runs, [runId]: true } };
    }
    default:
      return assertNever(event.type);
  }
}

export const currentRunDecider: Decider<
  SetCurrentVerificationRun,
  CurrentVerificationRunSet,
  CurrentRunState
> = { decide, evolve, initialState: initialCurrentRunState };
