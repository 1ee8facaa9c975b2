import { useEffect, useState, type FormEvent } from 'react';
import { errorText, get, post } from '../api';
import { ENVIRONMENT_IDS, environmentName, PROVIDER_IDS, providerName } from '../format';
import { navigate, sessionPath } from '../router';
import type { Settings } from '../settings-types';
import type { SessionEnvironment } from '../types';

/** The New session form: title, provider and environment; the defaults come from Settings. */
export function NewSessionForm({ onDone }: { onDone: () => void }) {
  const [title, setTitle] = useState('');
  const [provider, setProvider] = useState('claude-code');
  const [environment, setEnvironment] = useState<SessionEnvironment>('docker-linux');
  const [environments, setEnvironments] = useState<SessionEnvironment[]>(ENVIRONMENT_IDS);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    get<{ settings: Settings }>('/api/settings')
      .then(({ settings }) => {
        if (!live) return;
        setProvider(settings.defaults.provider ?? 'claude-code');
        setEnvironment(settings.defaults.environment ?? 'docker-linux');
        if (settings.environments?.length) setEnvironments(settings.environments);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const created = await post<{ id: string }>('/api/sessions', {
        title: title.trim(),
        provider,
        environment,
      });
      onDone();
      navigate(sessionPath(created.id));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const providers = PROVIDER_IDS.includes(provider) ? PROVIDER_IDS : [provider, ...PROVIDER_IDS];
  return (
    <form id="new-session-form" className="new-session" onSubmit={(e) => void submit(e)}>
      <label htmlFor="new-session-title">Title</label>
      <input
        id="new-session-title"
        value={title}
        maxLength={200}
        required
        autoFocus
        onChange={(e) => setTitle(e.target.value)}
      />
      <label htmlFor="new-session-provider">Provider</label>
      <select
        id="new-session-provider"
        value={provider}
        onChange={(e) => setProvider(e.target.value)}
      >
        {providers.map((p) => (
          <option key={p} value={p}>
            {providerName(p)}
          </option>
        ))}
      </select>
      <label htmlFor="new-session-environment">Environment</label>
      <select
        id="new-session-environment"
        value={environment}
        onChange={(e) => setEnvironment(e.target.value as SessionEnvironment)}
      >
        {environments.map((env) => (
          <option key={env} value={env}>
            {environmentName(env)}
          </option>
        ))}
      </select>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          Create session
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
