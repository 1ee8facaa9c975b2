import { useEffect, useState, type FormEvent } from 'react';
import { api, del, errorText, get } from '../api';
import { useAction } from '../hooks';
import type { CredentialView } from '@sessionboxer/contracts';
import { ErrorAlert } from './FormParts';

const LABELS: Record<string, string> = {
  anthropicApiKey: 'Anthropic API key',
  claudeCodeOauthToken: 'Claude Code OAuth token',
  openaiApiKey: 'OpenAI API key',
  openrouterApiKey: 'OpenRouter API key',
};

/** One credential: whether it is set, a field to set it (never shown back), Clear. */
function CredentialRow({ item, onChange }: { item: CredentialView; onChange: () => void }) {
  const [value, setValue] = useState('');
  const { busy, error, run } = useAction();
  const id = `credential-${item.name}`;
  const label = LABELS[item.name] ?? item.name;
  const save = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      await api('PUT', `/api/settings/credentials/${item.name}`, { value });
      setValue('');
      onChange();
    });
  };
  return (
    <form className="field credential" onSubmit={save}>
      <label htmlFor={id}>
        {label} <span className="muted">({item.set ? 'set' : 'not set'})</span>
      </label>
      <div className="row">
        <input
          id={id}
          type="password"
          autoComplete="off"
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
        <button type="submit" disabled={busy || value.length === 0}>
          Set {label}
        </button>
        {item.set && (
          <button
            type="button"
            disabled={busy}
            onClick={() =>
              void run(() => del(`/api/settings/credentials/${item.name}`).then(onChange))
            }
          >
            Clear {label}
          </button>
        )}
      </div>
      <ErrorAlert error={error} />
    </form>
  );
}

/** Agents' credentials: values go in and never come back; the page only says which are set. */
export function Credentials() {
  const [items, setItems] = useState<CredentialView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = () =>
    get<CredentialView[]>('/api/settings/credentials')
      .then(setItems)
      .catch((e: unknown) => setError(errorText(e)));
  useEffect(() => void load(), []);
  return (
    <section className="card" aria-labelledby="credentials-settings">
      <h2 id="credentials-settings">Credentials</h2>
      <p className="muted">
        Handed to the agent for its runs only; never shown again, never in the event history.
      </p>
      <ErrorAlert error={error} />
      {items?.map((item) => (
        <CredentialRow key={item.name} item={item} onChange={() => void load()} />
      ))}
    </section>
  );
}
