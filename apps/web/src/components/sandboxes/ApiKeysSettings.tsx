import { useEffect, useState, type FormEvent } from 'react';
import { del, errorText, get, post } from '../../api';
import { useAction } from '../../hooks';
import { ErrorAlert } from '../FormParts';

interface ApiKeyRow {
  keyId: string;
  name: string;
  scopes: string[];
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
}

const ROUTE = '/api/orgs/default/api-keys';
const SCOPES = ['sandboxes:read', 'sandboxes:write'];

/** Settings → API keys: the keys of the sandbox API; a new key is shown once. */
export function ApiKeysSettings() {
  const [keys, setKeys] = useState<ApiKeyRow[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>(SCOPES);
  const [shown, setShown] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const reload = () => get<{ apiKeys: ApiKeyRow[] }>(ROUTE).then((r) => setKeys(r.apiKeys));
  useEffect(() => {
    reload().catch((e: unknown) => setLoadError(errorText(e)));
  }, []);
  const create = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const made = await post<{ key: string }>(ROUTE, { name: name.trim(), scopes });
      setShown(made.key);
      setName('');
      await reload();
    });
  };
  const revoke = (keyId: string) =>
    void run(async () => {
      await del(`${ROUTE}/${encodeURIComponent(keyId)}`);
      await reload();
    });
  const toggle = (scope: string) =>
    setScopes((s) => (s.includes(scope) ? s.filter((x) => x !== scope) : [...s, scope]));
  return (
    <section className="card" id="api-keys" aria-labelledby="api-keys-settings">
      <h2 id="api-keys-settings">API keys</h2>
      <p className="muted">
        Keys of the sandbox API (docs/SANDBOXES.md). A key is shown once; revoking one stops it at
        once.
      </p>
      <ErrorAlert error={loadError ?? error} />
      {shown && (
        <p role="status">
          New key (copy it now, it is not shown again): <code>{shown}</code>
        </p>
      )}
      {keys && keys.length > 0 && (
        <ul aria-label="API keys">
          {keys.map((k) => (
            <li key={k.keyId}>
              {k.name} <code>{k.prefix}…</code> {k.scopes.join(', ')}{' '}
              {k.revokedAt ? (
                <span className="muted">revoked</span>
              ) : (
                <button type="button" disabled={busy} onClick={() => revoke(k.keyId)}>
                  Revoke {k.name}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={create}>
        <label>
          Name <input value={name} onChange={(e) => setName(e.target.value)} required />
        </label>
        {SCOPES.map((scope) => (
          <label key={scope}>
            <input
              type="checkbox"
              checked={scopes.includes(scope)}
              onChange={() => toggle(scope)}
            />{' '}
            {scope}
          </label>
        ))}
        <button type="submit" disabled={busy}>
          Create key
        </button>
      </form>
    </section>
  );
}
