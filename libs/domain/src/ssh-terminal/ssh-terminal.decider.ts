import { assertNever, DomainError, ErrorCode, type Decider } from '../kernel';
import { bool, exactId, integer, text } from '../kernel/validation';
import { SSH_SIGN_TIMEOUT_MS, type SshTerminalCommand } from './ssh-terminal.commands';
import type { SshTerminalEvent } from './ssh-terminal.events';

/**
 * A terminal on an SSH endpoint, opened for one AgentSession: requested (an endpoint-auth
 * card), allowed by a person, opened after the handshake, then closed or errored. The
 * deadline is in the request, so an unanswered card is past it whether or not a timer fired.
 */
export type SshTerminalStatus = 'pending' | 'allowed' | 'open' | 'closed' | 'errored';
/** What the spec's tools and notifications say: `allowed` is still handshaking, so pending. */
export type SshTerminalPublicStatus = 'pending' | 'open' | 'closed' | 'errored';

export type SshTerminalState =
  | { status: 'absent' }
  | {
      status: SshTerminalStatus;
      terminalId: string;
      owner: string;
      endpointId: string;
      expiresAt: string;
      /** Bytes of output recorded so far: the next batch's offset. */
      bytes: number;
      /** Errored while still pending: nobody answered in time. */
      timedOut: boolean;
    };

export function sshTerminalStream(terminalId: string): string {
  return `sshterminal-${exactId(terminalId, 'terminalId')}`;
}

export function publicStatus(status: SshTerminalStatus): SshTerminalPublicStatus {
  return status === 'allowed' ? 'pending' : status;
}

type Existing = Exclude<SshTerminalState, { status: 'absent' }>;

function existing(state: SshTerminalState, id: string): Existing {
  if (state.status === 'absent') {
    throw new DomainError(ErrorCode.NotFound, `session ${id} does not exist`);
  }
  return state;
}

const ended = (s: Existing) => s.status === 'closed' || s.status === 'errored';

function answer(
  command: Extract<SshTerminalCommand, { type: 'AnswerSshTerminal' }>,
  t: Existing,
): SshTerminalEvent[] {
  const { actor, at } = command.metadata;
  if (actor.kind !== 'person') {
    throw new DomainError(ErrorCode.Forbidden, `only a person answers terminal ${t.terminalId}`);
  }
  if ((t.status === 'pending' && at >= t.expiresAt) || t.timedOut) {
    throw new DomainError(
      ErrorCode.InvalidState,
      `sign timeout: terminal ${t.terminalId} waited for an answer until ${t.expiresAt}, and counts as denied`,
    );
  }
  if (t.status !== 'pending') {
    throw new DomainError(
      ErrorCode.InvalidState,
      `terminal ${t.terminalId} was already answered (${t.status})`,
    );
  }
  const terminalId = t.terminalId;
  return bool(command.data.allow, 'allow')
    ? [{ type: 'SshTerminalAllowed', data: { terminalId, by: actor, at } }]
    : [{ type: 'SshTerminalClosed', data: { terminalId, reason: 'denied', by: actor, at } }];
}

function output(
  command: Extract<SshTerminalCommand, { type: 'RecordSshTerminalOutput' }>,
  t: Existing,
): SshTerminalEvent[] {
  const offset = integer(command.data.offset, 'offset', 0, Number.MAX_SAFE_INTEGER);
  const length = integer(command.data.length, 'length', 1, 16 * 1024 * 1024);
  if (offset + length <= t.bytes) return []; // a batch recorded already
  if (offset !== t.bytes) {
    throw new DomainError(
      ErrorCode.InvalidState,
      `terminal ${t.terminalId} has ${t.bytes} bytes recorded; a batch at ${offset} would leave a gap or overlap`,
    );
  }
  if (t.status !== 'open' && !ended(t)) {
    throw new DomainError(ErrorCode.InvalidState, `terminal ${t.terminalId} is not open`);
  }
  const { terminalId } = t;
  const data = { terminalId, offset, length, data: command.data.data, at: command.metadata.at };
  return [{ type: 'SshTerminalOutputRecorded', data }];
}

function decide(command: SshTerminalCommand, state: SshTerminalState): SshTerminalEvent[] {
  const { metadata } = command;
  const at = metadata.at;
  switch (command.type) {
    case 'RequestSshTerminal': {
      const d = command.data;
      const terminalId = exactId(d.terminalId, 'terminalId');
      if (state.status !== 'absent') return [];
      if (!(d.approversConnected > 0)) {
        throw new DomainError(
          ErrorCode.Forbidden,
          `no approver's browser is connected to allow a terminal to endpoint ${d.target.endpointId}: someone must have the Sessionboxer web UI open; try again then`,
        );
      }
      const owner = exactId(d.owner, 'owner');
      const requester = text(d.requester, 'requester', 300);
      const data = {
        terminalId,
        owner,
        requestedBy: metadata.actor,
        requester,
        target: d.target,
        expiresAt: d.expiresAt,
        at,
        ...(d.forSession ? { forSession: exactId(d.forSession, 'forSession') } : {}),
      };
      return [{ type: 'SshTerminalRequested', data }];
    }
    case 'AnswerSshTerminal':
      return answer(command, existing(state, command.data.terminalId));
    case 'ExpireSshTerminal': {
      const t = existing(state, command.data.terminalId);
      if (t.status !== 'pending' || at < t.expiresAt) return [];
      const message = `sign timeout: no approver answered by ${t.expiresAt} (${SSH_SIGN_TIMEOUT_MS / 1000} s)`;
      return [{ type: 'SshTerminalErrored', data: { terminalId: t.terminalId, message, at } }];
    }
    case 'RecordSshTerminalOpened': {
      const t = existing(state, command.data.terminalId);
      if (t.status !== 'allowed') {
        throw new DomainError(
          ErrorCode.InvalidState,
          `terminal ${t.terminalId} is ${t.status}, not allowed`,
        );
      }
      const fingerprint = text(command.data.hostKeyFingerprint, 'hostKeyFingerprint', 100);
      return [
        {
          type: 'SshTerminalOpened',
          data: { terminalId: t.terminalId, hostKeyFingerprint: fingerprint, at },
        },
      ];
    }
    case 'RecordSshTerminalOutput':
      return output(command, existing(state, command.data.terminalId));
    case 'CloseSshTerminal': {
      const t = existing(state, command.data.terminalId);
      if (ended(t)) return [];
      const data = {
        terminalId: t.terminalId,
        reason: command.data.reason,
        by: metadata.actor,
        at,
      };
      return [{ type: 'SshTerminalClosed', data }];
    }
    case 'FailSshTerminal': {
      const t = existing(state, command.data.terminalId);
      if (ended(t)) return [];
      const message = text(command.data.message, 'message', 1000);
      return [{ type: 'SshTerminalErrored', data: { terminalId: t.terminalId, message, at } }];
    }
    default:
      return assertNever(command);
  }
}

function evolve(state: SshTerminalState, event: SshTerminalEvent): SshTerminalState {
  if (event.type === 'SshTerminalRequested') {
    const { terminalId, owner, target, expiresAt } = event.data;
    return {
      status: 'pending',
      terminalId,
      owner,
      endpointId: target.endpointId,
      expiresAt,
      bytes: 0,
      timedOut: false,
    };
  }
  if (state.status === 'absent') return state;
  switch (event.type) {
    case 'SshTerminalAllowed':
      return { ...state, status: 'allowed' };
    case 'SshTerminalOpened':
      return { ...state, status: 'open' };
    case 'SshTerminalOutputRecorded':
      return { ...state, bytes: event.data.offset + event.data.length };
    case 'SshTerminalClosed':
      return { ...state, status: 'closed' };
    case 'SshTerminalErrored':
      return { ...state, status: 'errored', timedOut: state.status === 'pending' };
    default:
      return assertNever(event);
  }
}

export const sshTerminalDecider: Decider<SshTerminalCommand, SshTerminalEvent, SshTerminalState> = {
  decide,
  evolve,
  initialState: { status: 'absent' },
};
