import {
  assertNever,
  DomainError,
  ErrorCode,
  type Actor,
  type Command,
  type Decider,
  type DomainEvent,
} from '../kernel';
import { bool, exactId, text } from '../kernel/validation';
import { APPROVAL_REASON_MAX_LENGTH } from '../limits';

/**
 * A person's yes or no to an agent's action (session_create under "Ask me"). The deadline is
 * in the event: every read and every decision compares it with the command's time, so a card
 * nobody answered is expired (and counts as denied) whether or not a job ever marked it.
 */
export type ApprovalKind = 'session_create';
export type ApprovalStatus = 'pending' | 'allowed' | 'denied' | 'expired';

/** How long a card waits for an answer. */
export const APPROVAL_TTL_MS = 10 * 60 * 1000;

export type RequestApproval = Command<
  'RequestApproval',
  {
    approvalId: string;
    kind: ApprovalKind;
    sessionId: string;
    summary: string;
    payload: Record<string, unknown>;
    expiresAt: string;
  }
>;
/** `reason`: why (optional; a Deny's, for the record and the card). */
export type AnswerApproval = Command<
  'AnswerApproval',
  { approvalId: string; allow: boolean; reason?: string | null }
>;
export type ExpireApproval = Command<'ExpireApproval', { approvalId: string }>;
/** What the allowed action returned (the created session), or why it failed. */
export type RecordApprovalOutcome = Command<
  'RecordApprovalOutcome',
  { approvalId: string; result: Record<string, unknown> | null; error: string | null }
>;

export type ApprovalCommand =
  RequestApproval | AnswerApproval | ExpireApproval | RecordApprovalOutcome;

export type ApprovalRequested = DomainEvent<
  'ApprovalRequested',
  {
    approvalId: string;
    kind: ApprovalKind;
    sessionId: string;
    summary: string;
    payload: Record<string, unknown>;
    expiresAt: string;
    at: string;
  }
>;
export type ApprovalAnswered = DomainEvent<
  'ApprovalAnswered',
  {
    approvalId: string;
    sessionId: string;
    allowed: boolean;
    by: Actor;
    at: string;
    /** Absent when none was given (and in events recorded before reasons). */
    reason?: string;
  }
>;
export type ApprovalExpired = DomainEvent<
  'ApprovalExpired',
  { approvalId: string; sessionId: string; at: string }
>;
export type ApprovalOutcomeRecorded = DomainEvent<
  'ApprovalOutcomeRecorded',
  {
    approvalId: string;
    sessionId: string;
    result: Record<string, unknown> | null;
    error: string | null;
    at: string;
  }
>;

export type ApprovalEvent =
  ApprovalRequested | ApprovalAnswered | ApprovalExpired | ApprovalOutcomeRecorded;

export const APPROVAL_EVENT_TYPES: readonly ApprovalEvent['type'][] = [
  'ApprovalRequested',
  'ApprovalAnswered',
  'ApprovalExpired',
  'ApprovalOutcomeRecorded',
];

export function isApprovalEvent(event: { type: string }): event is ApprovalEvent {
  return (APPROVAL_EVENT_TYPES as readonly string[]).includes(event.type);
}

export type ApprovalState =
  | { status: 'absent' }
  | {
      status: ApprovalStatus;
      approvalId: string;
      sessionId: string;
      expiresAt: string;
      outcome: boolean;
    };

export function approvalStream(approvalId: string): string {
  return `approval-${exactId(approvalId, 'approvalId')}`;
}

/**
 * The status as of `at`: a pending card past its deadline is expired, recorded or not. Times
 * are ISO-8601 in UTC as toISOString writes them (fixed width, `Z`), so they compare as text.
 */
export function statusAt(state: ApprovalState, at: string): ApprovalStatus | 'absent' {
  if (state.status === 'pending' && at >= state.expiresAt) return 'expired';
  return state.status;
}

/** A reason as given: none (absent, null or only blanks), or one line of text. */
function answerReason(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' && value.trim() === '') return null;
  return text(value, 'reason', APPROVAL_REASON_MAX_LENGTH);
}

function existing(state: ApprovalState, id: string) {
  if (state.status === 'absent')
    throw new DomainError(ErrorCode.NotFound, `approval ${id} does not exist`);
  return state;
}

function decide(command: ApprovalCommand, state: ApprovalState): ApprovalEvent[] {
  const { metadata } = command;
  const at = metadata.at;
  switch (command.type) {
    case 'RequestApproval': {
      const d = command.data;
      if (state.status !== 'absent') return [];
      const data = {
        ...d,
        approvalId: exactId(d.approvalId, 'approvalId'),
        summary: text(d.summary, 'summary', 500),
        at,
      };
      return [{ type: 'ApprovalRequested', data }];
    }
    case 'AnswerApproval': {
      const a = existing(state, command.data.approvalId);
      // The agent that asked must never answer its own card: only a person decides.
      if (metadata.actor.kind !== 'person') {
        throw new DomainError(
          ErrorCode.Forbidden,
          `only a person answers approval ${a.approvalId}`,
        );
      }
      const now = statusAt(a, at);
      if (now === 'expired' && a.status === 'pending') {
        throw new DomainError(
          ErrorCode.InvalidState,
          `approval ${a.approvalId} expired at ${a.expiresAt}, unanswered, and counts as denied`,
        );
      }
      if (now !== 'pending')
        throw new DomainError(
          ErrorCode.InvalidState,
          `approval ${a.approvalId} was already ${now}`,
        );
      const allowed = bool(command.data.allow, 'allow');
      const reason = answerReason(command.data.reason);
      const data = {
        approvalId: a.approvalId,
        sessionId: a.sessionId,
        allowed,
        by: metadata.actor,
        at,
      };
      return [{ type: 'ApprovalAnswered', data: reason === null ? data : { ...data, reason } }];
    }
    case 'ExpireApproval': {
      const a = existing(state, command.data.approvalId);
      if (a.status !== 'pending' || statusAt(a, at) !== 'expired') return [];
      return [
        { type: 'ApprovalExpired', data: { approvalId: a.approvalId, sessionId: a.sessionId, at } },
      ];
    }
    case 'RecordApprovalOutcome': {
      const a = existing(state, command.data.approvalId);
      if (a.status !== 'allowed')
        throw new DomainError(
          ErrorCode.InvalidState,
          `approval ${a.approvalId} is ${statusAt(a, at)}, not allowed`,
        );
      if (a.outcome) return [];
      const { result, error } = command.data;
      return [
        {
          type: 'ApprovalOutcomeRecorded',
          data: { approvalId: a.approvalId, sessionId: a.sessionId, result, error, at },
        },
      ];
    }
    default:
      return assertNever(command);
  }
}

function evolve(state: ApprovalState, event: ApprovalEvent): ApprovalState {
  switch (event.type) {
    case 'ApprovalRequested': {
      const { approvalId, sessionId, expiresAt } = event.data;
      return { status: 'pending', approvalId, sessionId, expiresAt, outcome: false };
    }
    case 'ApprovalAnswered':
      return state.status === 'absent'
        ? state
        : { ...state, status: event.data.allowed ? 'allowed' : 'denied' };
    case 'ApprovalExpired':
      return state.status === 'absent' ? state : { ...state, status: 'expired' };
    case 'ApprovalOutcomeRecorded':
      return state.status === 'absent' ? state : { ...state, outcome: true };
    default:
      return assertNever(event);
  }
}

export const approvalDecider: Decider<ApprovalCommand, ApprovalEvent, ApprovalState> = {
  decide,
  evolve,
  initialState: { status: 'absent' },
};
