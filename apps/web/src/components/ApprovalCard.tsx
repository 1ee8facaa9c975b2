import { post } from '../api';
import { clock, providerName } from '../format';
import { useAction, useNow } from '../hooks';
import { Link, sessionPath } from '../router';
import { getState } from '../store';
import type { Approval } from '../types';
import { applyActionResult } from '../view-state';

/** The title the card asks about: from its payload, else from its summary's quotes. */
function askedTitle(approval: Approval): string {
  if (approval.payload?.title) return approval.payload.title;
  const quoted = /“(.*)”\s*$/.exec(approval.summary) ?? /'(.*)'\s*$/.exec(approval.summary);
  return quoted ? quoted[1] : approval.summary;
}

function Settled({ approval, title }: { approval: Approval; title: string }) {
  if (approval.status === 'denied') return <p className="settled denied">Denied</p>;
  const created = approval.result?.sessionId;
  return (
    <p className="settled allowed">
      Allowed
      {created && (
        <>
          {': '}
          <Link to={sessionPath(created)}>{approval.result?.title ?? title}</Link>
        </>
      )}
      {!created && !approval.error && ' (creating the session…)'}
    </p>
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
  const { busy, error, run } = useAction();
  const title = askedTitle(approval);
  const left = (Date.parse(approval.expiresAt) - now) / 1000;
  const expired = approval.status === 'expired' || (approval.status === 'pending' && left <= 0);
  const pending = approval.status === 'pending' && !expired;

  const answer = (how: 'allow' | 'deny') =>
    run(async () => {
      const answered = await post<Approval>(`/api/approvals/${approval.id}/${how}`);
      const list = getState().view?.parts.approvals ?? [];
      const approvals = list.map((a) => (a.id === answered.id ? { ...a, ...answered } : a));
      applyActionResult(sessionId, { approvals });
    });

  return (
    <article
      aria-label="Approval"
      className={`approval approval-${expired ? 'expired' : approval.status}`}
    >
      <p className="approval-text">
        {providerName(provider)} wants to create a Session &apos;{title}&apos;
      </p>
      {pending && (
        <>
          <p className="time-left" role="timer">
            {clock(left)} left to answer
          </p>
          <div className="row">
            <button
              type="button"
              className="primary"
              disabled={busy}
              onClick={() => void answer('allow')}
            >
              Allow
            </button>
            <button type="button" disabled={busy} onClick={() => void answer('deny')}>
              Deny
            </button>
          </div>
        </>
      )}
      {expired && <p className="settled expired">Expired: nobody answered in 10 minutes</p>}
      {(approval.status === 'allowed' || approval.status === 'denied') && (
        <Settled approval={approval} title={title} />
      )}
      {approval.error && (
        <p className="error">The session could not be created: {approval.error}</p>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </article>
  );
}
