import { useEffect, useState } from 'react';
import { api, del, errorText, get } from '../api';
import type { CredentialView } from '@sessionboxer/contracts';
import { ErrorAlert } from './FormParts';
import { SecretField } from './SecretField';

const LABELS: Record<string, string> = {
  anthropicApiKey: 'Anthropic API key',
  claudeCodeOauthToken: 'Claude Code OAuth token',
  openaiApiKey: 'OpenAI API key',
  openrouterApiKey: 'OpenRouter API key',
};

/** One credential: whether it is set, a field to set it (never shown back), Clear. */
function CredentialRow({ item, onChange }: { item: CredentialView; onChange: () => void }) {
  const route = `/api/settings/credentials/${item.name}`;
  return (
    <SecretField
      id={`credential-${item.name}`}
      label={LABELS[item.name] ?? item.name}
      isSet={item.set}
      onSet={(value) => api('PUT', route, { value }).then(onChange)}
      onClear={() => del(route).then(onChange)}
    />
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
