import type { Approval } from '@sessionboxer/contracts';
import { environmentName, providerName } from '../format';
import { Link, sessionPath } from '../router';

const POLICY_SOURCE = {
  session: 'this session’s own setting',
  global: 'the global setting',
} as const;

/**
 * What an approval card asks, in full, so a person can judge it: the first prompt the new
 * session would get, its provider, environment and repositories, the asking session, and the
 * policy that made it ask. Agent text is shown as text (React escapes it), never as markup.
 */
export function ApprovalRequest({ approval }: { approval: Approval }) {
  const { request, askingSession } = approval;
  if (!request) return null;
  return (
    <dl className="approval-request">
      {askingSession && (
        <>
          <dt>Asked by</dt>
          <dd>
            the agent of{' '}
            <Link to={sessionPath(askingSession.id)}>
              {askingSession.title ?? askingSession.id}
            </Link>
          </dd>
        </>
      )}
      <dt>First prompt</dt>
      <dd>
        <pre className="approval-prompt">{request.firstPrompt || '(none recorded)'}</pre>
      </dd>
      <dt>Provider</dt>
      <dd>{request.provider ? providerName(request.provider) : '—'}</dd>
      <dt>Environment</dt>
      <dd>{request.environment ? environmentName(request.environment) : 'the Global default'}</dd>
      <dt>Repositories</dt>
      <dd>{request.repos.length > 0 ? request.repos.join(', ') : 'none'}</dd>
      <dt>Policy</dt>
      <dd>
        “When the agent creates a session: Ask me”
        {request.policySource && <>, from {POLICY_SOURCE[request.policySource]}</>}
      </dd>
    </dl>
  );
}
