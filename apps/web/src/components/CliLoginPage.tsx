import { useEffect, useState } from 'react';
import { errorText, get, post } from '../api';
import { useAction } from '../hooks';
import { ErrorAlert } from './FormParts';

interface LoginRequestView {
  request_id: string;
  user_code: string;
  org_id: string;
  org_name: string;
  scopes: string[];
  client: string;
  status: 'pending' | 'approved' | 'denied';
  expires_at: string;
}

/**
 * /cli-login/<id>: a `sessionboxer login` waiting for a person. It shows which org the key is
 * for, its scopes and the code the CLI printed; approving gives the CLI a new key once.
 */
export function CliLoginPage({ requestId }: { requestId: string }) {
  const route = `/api/cli-login/${encodeURIComponent(requestId)}`;
  const [request, setRequest] = useState<LoginRequestView | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  useEffect(() => {
    get<LoginRequestView>(route).then(setRequest, (e: unknown) => setLoadError(errorText(e)));
  }, [route]);
  const decide = (decision: 'approve' | 'deny') =>
    void run(async () => {
      const done = await post<{ status: LoginRequestView['status'] }>(`${route}/${decision}`);
      setRequest((r) => (r ? { ...r, status: done.status } : r));
    });
  return (
    <section className="card" aria-labelledby="cli-login-title">
      <h1 id="cli-login-title">Sign in the CLI</h1>
      <ErrorAlert error={loadError ?? error} />
      {request && (
        <>
          <p>
            <code>sessionboxer login</code> on <strong>{request.client}</strong> asks for an API key
            of the org <strong>{request.org_name}</strong> (<code>{request.org_id}</code>).
          </p>
          <dl aria-label="Login request">
            <dt>Code</dt>
            <dd>
              <code className="login-code">{request.user_code}</code> — approve only if the CLI
              shows the same code.
            </dd>
            <dt>Scopes</dt>
            <dd>{request.scopes.join(', ')}</dd>
            <dt>Expires</dt>
            <dd>{new Date(request.expires_at).toLocaleTimeString()}</dd>
          </dl>
          {request.status === 'pending' ? (
            <p>
              <button type="button" disabled={busy} onClick={() => decide('approve')}>
                Approve
              </button>{' '}
              <button type="button" disabled={busy} onClick={() => decide('deny')}>
                Deny
              </button>
            </p>
          ) : (
            <p role="status">
              {request.status === 'approved'
                ? 'Approved: the CLI receives its key now. You can close this page.'
                : 'Denied: no key was made.'}
            </p>
          )}
        </>
      )}
    </section>
  );
}
