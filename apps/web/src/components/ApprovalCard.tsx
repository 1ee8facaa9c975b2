import { useState } from 'react';
import { APPROVAL_REASON_MAX_LENGTH } from '@sessionboxer/domain/limits';
import { post } from '../api';
import { clock, providerName } from '../format';
import { useAction, useNow } from '../hooks';
import { Link, sessionPath } from '../router';
import { getState } from '../store';
import type { Approval } from '@sessionboxer/contracts';
import { applyActionResult } from '../view-state';
import { ApprovalRequest } from './ApprovalRequest';
import { ErrorAlert } from './FormParts';

/** The title the card asks about: from its summary's quotes (the card carries no payload). */
function askedTitle(approval: Approval): string {
  const quoted = /“(.*)”\s*$/.exec(approval.summary) ?? /'(.*)'\s*$/.exec(approval.summary);
  return quoted ? quoted[1] : approval.summary;
}

/** A field of what the allowed action returned (session_create's answer), if it is a string. */
function resultText(approval: Approval, key: 'sessionId' | 'title'): string | undefined {
  const value = approval.result?.[key];
  return typeof value === 'string' ? value : undefined;
}

function Settled({ approval, title }: { approval: Approval; title: string }) {
  const by = approval.answeredBy ? ` by ${approval.answeredBy}` : '';
  if (approval.status === 'denied')
    return (
      <>
        <p className="settled denied">Denied</p>
        {(by || approval.reason) && (
          <p className="muted answered">
            Denied{by}
            {approval.reason && <>: {approval.reason}</>}
          </p>
        )}
      </>
    );
  const created = resultText(approval, 'sessionId');
  return (
    <p className="settled allowed">
      Allowed
      {created && (
        <>
          {': '}
          <Link to={sessionPath(created)}>{resultText(approval, 'title') ?? title}</Link>
        </>
      )}
      {!created && !approval.error && ' (creating the session…)'}
    </p>
  );
}

/** Allow or Deny; the answer replaces the card's approval in the view. */
function useAnswer(sessionId: string, approvalId: string) {
  const { busy, error, run } = useAction();
  const answer = (how: 'allow' | 'deny', reason: string) =>
    run(async () => {
      const body = how === 'deny' && reason.trim() !== '' ? { reason: reason.trim() } : {};
      const answered = await post<Approval>(`/api/approvals/${approvalId}/${how}`, body);
      const list = getState().view?.parts.approvals ?? [];
      const approvals = list.map((a) => (a.id === answered.id ? { ...a, ...answered } : a));
      applyActionResult(sessionId, { approvals });
    });
  return { busy, error, answer };
}

interface PendingProps {
  approvalId: string;
  /** Seconds left to answer. */
  left: number;
  busy: boolean;
  onAnswer: (how: 'allow' | 'deny', reason: string) => void;
}

/** The server's limit for a reason, checked here as you type. */
const REASON_MAX = APPROVAL_REASON_MAX_LENGTH;

/** A pending card's countdown, with Allow, and Deny with an optional reason. */
function Pending({ approvalId, left, busy, onAnswer }: PendingProps) {
  const [reason, setReason] = useState('');
  const field = `deny-reason-${approvalId}`;
  const tooLong = [...reason.trim()].length > REASON_MAX;
  return (
    <>
      <p className="time-left" role="timer">
        {clock(left)} left to answer
      </p>
      <div className="row">
        <button
          type="button"
          className="primary"
          disabled={busy}
          onClick={() => onAnswer('allow', '')}
        >
          Allow
        </button>
        <button type="button" disabled={busy || tooLong} onClick={() => onAnswer('deny', reason)}>
          Deny
        </button>
      </div>
      <div className="field">
        <label htmlFor={field}>Reason for denying (optional)</label>
        <input
          id={field}
          value={reason}
          maxLength={REASON_MAX * 2}
          aria-invalid={tooLong}
          onChange={(e) => setReason(e.target.value.replace(/[\r\n\t]/g, ' '))}
        />
        {tooLong && (
          <p className="error" role="alert">
            A reason is at most {REASON_MAX} characters.
          </p>
        )}
      </div>
    </>
  );
}

interface Props {
  sessionId: string;
  approval: Approval;
  /** The asking session's provider, whose display name the card opens with. */
  provider: string;
}

/**
 * An agent's request for a person: "<Agent> wants to create a Session '<title>'", the time
 * left (counted down here; a card still pending past its deadline reads expired), Allow and
 * Deny; once settled, how, with a link to the session an allowed card created.
 */
export function ApprovalCard({ sessionId, approval, provider }: Props) {
  const now = useNow(1000);
  const { busy, error, answer } = useAnswer(sessionId, approval.id);
  const title = askedTitle(approval);
  const left = (Date.parse(approval.expiresAt) - now) / 1000;
  const expired = approval.status === 'expired' || (approval.status === 'pending' && left <= 0);
  const pending = approval.status === 'pending' && !expired;
  return (
    <article
      aria-label="Approval"
      className={`approval approval-${expired ? 'expired' : approval.status}`}
    >
      <p className="approval-text">
        {providerName(provider)} wants to create a Session &apos;{title}&apos;
      </p>
      <ApprovalRequest approval={approval} />
      {pending && (
        <Pending
          approvalId={approval.id}
          left={left}
          busy={busy}
          onAnswer={(how, reason) => void answer(how, reason)}
        />
      )}
      {expired && <p className="settled expired">Expired: nobody answered in 10 minutes</p>}
      {(approval.status === 'allowed' || approval.status === 'denied') && (
        <Settled approval={approval} title={title} />
      )}
      {approval.error && (
        <p className="error">The session could not be created: {approval.error}</p>
      )}
      <ErrorAlert error={error} />
    </article>
  );
}
