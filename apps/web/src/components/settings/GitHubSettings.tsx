import { useState, type FormEvent } from 'react';
import { POLL_SECONDS_MAX, POLL_SECONDS_MIN } from '@sessionboxer/domain/limits';
import { patch } from '../../api';
import { useSave } from '../../hooks';
import type { SettingsView } from '@sessionboxer/contracts';
import { ErrorAlert, SaveRow } from '../FormParts';
import { SecretField } from '../SecretField';

interface Props {
  view: SettingsView;
  onSaved: (view: SettingsView) => void;
}

type Secret = 'token' | 'webhookSecret';
const SECRETS: { key: Secret; set: keyof SettingsView['secretsSet']; label: string }[] = [
  { key: 'token', set: 'githubToken', label: 'GitHub token' },
  { key: 'webhookSecret', set: 'githubWebhookSecret', label: 'Webhook secret' },
];

/** One secret: whether it is set, a field to set it (never shown back), Clear. */
function SecretRow({ view, onSaved, secret }: Props & { secret: (typeof SECRETS)[number] }) {
  const send = async (next: string | null) =>
    onSaved(await patch<SettingsView>('/api/settings', { github: { [secret.key]: next } }));
  return (
    <SecretField
      id={`github-${secret.key}`}
      label={secret.label}
      isSet={view.secretsSet[secret.set]}
      onSet={(value) => send(value.trim())}
      onClear={() => send(null)}
    />
  );
}

/** A whole number of seconds within the server's range, or why not (its rule, checked here). */
function pollProblem(text: string): string | null {
  const n = Number(text);
  if (text.trim() === '' || !Number.isInteger(n) || n < POLL_SECONDS_MIN || n > POLL_SECONDS_MAX)
    return `Poll every must be a whole number of seconds from ${POLL_SECONDS_MIN} to ${POLL_SECONDS_MAX}.`;
  return null;
}

/**
 * Settings → GitHub: the token the PRs pane reads pull requests and checks with (set, never
 * shown back), the webhook secret, and how often PRs are polled without webhooks.
 */
export function GitHubSettings({ view, onSaved }: Props) {
  const [poll, setPoll] = useState(String(view.settings.github.pollSeconds));
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSave();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const wrong = pollProblem(poll);
    setProblem(wrong);
    if (wrong) return;
    void save.run(async () => {
      const body = { github: { pollSeconds: Number(poll) } };
      onSaved(await patch<SettingsView>('/api/settings', body));
    });
  };
  return (
    <section className="card" aria-labelledby="github-settings">
      <h2 id="github-settings">GitHub</h2>
      <p className="muted">
        For the PRs pane: pull requests, checks and reviews of the repositories in Settings.
      </p>
      {SECRETS.map((secret) => (
        <SecretRow key={secret.key} view={view} onSaved={onSaved} secret={secret} />
      ))}
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="github-poll">Poll every (seconds)</label>
          <input
            id="github-poll"
            type="number"
            min={POLL_SECONDS_MIN}
            max={POLL_SECONDS_MAX}
            value={poll}
            aria-invalid={problem !== null}
            onChange={(e) => {
              setPoll(e.target.value);
              save.unsaved();
            }}
          />
        </div>
        <SaveRow label="Save GitHub" busy={save.busy} status={save.saved ? 'Saved' : ''} />
        <ErrorAlert error={problem ?? save.error} />
      </form>
    </section>
  );
}
