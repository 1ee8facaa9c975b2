import { useEffect, useState, type FormEvent } from 'react';
import { api, errorText, get, post } from '../../api';
import { useAction } from '../../hooks';
import { ErrorAlert } from '../FormParts';

interface EnvironmentRow {
  name: string;
  secrets: { name: string; products: string[] }[];
}

const ROUTE = '/api/orgs/default/environments';

/** Settings → Environments and secrets: names and products shown, values only ever set. */
export function EnvironmentsSettings() {
  const [envs, setEnvs] = useState<EnvironmentRow[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [newEnv, setNewEnv] = useState('');
  const [environment, setEnvironment] = useState('default');
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const { busy, error, run } = useAction();
  const show = (r: { environments: EnvironmentRow[] }) => setEnvs(r.environments);
  useEffect(() => {
    get<{ environments: EnvironmentRow[] }>(ROUTE)
      .then(show)
      .catch((e: unknown) => setLoadError(errorText(e)));
  }, []);
  const create = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      show(await post<{ environments: EnvironmentRow[] }>(ROUTE, { name: newEnv.trim() }));
      setNewEnv('');
    });
  };
  const setSecret = (e: FormEvent) => {
    e.preventDefault();
    const path = `${ROUTE}/${encodeURIComponent(environment)}/secrets/${encodeURIComponent(name.trim())}`;
    void run(async () => {
      show(await api<{ environments: EnvironmentRow[] }>('PUT', path, { value }));
      setName('');
      setValue('');
    });
  };
  return (
    <section className="card" id="environments" aria-labelledby="environments-settings">
      <h2 id="environments-settings">Environments and secrets</h2>
      <p className="muted">
        A sandbox gets the secrets it names from its environment, as environment variables. Values
        are encrypted at rest and never shown again; exec output masks them, file reads do not.
      </p>
      <ErrorAlert error={loadError ?? error} />
      {envs && (
        <ul aria-label="Environments">
          {envs.map((env) => (
            <li key={env.name}>
              <strong>{env.name}</strong>:{' '}
              {env.secrets.length === 0
                ? 'no secrets'
                : env.secrets.map((s) => `${s.name} (${s.products.join(', ')})`).join('; ')}
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={create}>
        <label>
          New environment <input value={newEnv} onChange={(e) => setNewEnv(e.target.value)} />
        </label>
        <button type="submit" disabled={busy}>
          Create environment
        </button>
      </form>
      <form onSubmit={setSecret}>
        <label>
          Environment{' '}
          <select value={environment} onChange={(e) => setEnvironment(e.target.value)}>
            {(envs ?? []).map((env) => (
              <option key={env.name}>{env.name}</option>
            ))}
          </select>
        </label>
        <label>
          Secret name <input value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          Value <input type="password" value={value} onChange={(e) => setValue(e.target.value)} />
        </label>
        <button type="submit" disabled={busy}>
          Set secret
        </button>
      </form>
    </section>
  );
}
