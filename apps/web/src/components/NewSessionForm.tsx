import { useEffect, useState, type FormEvent } from 'react';
import { get, post } from '../api';
import { ENVIRONMENT_IDS } from '../format';
import { useAction } from '../hooks';
import { navigate, sessionPath } from '../router';
import type { SessionEnvironment, SessionView, SettingsView } from '@sessionboxer/contracts';
import { ErrorAlert } from './FormParts';
import { RepoPicker } from './RepoPicker';
import { EnvironmentSelect, ProviderSelect } from './SessionFields';
import { TITLE_MAX_LENGTH } from '@sessionboxer/domain/limits';

/** The provider and environment a new session starts with: Settings' defaults once loaded. */
function useNewSessionChoices() {
  const [provider, setProvider] = useState('claude-code');
  const [environment, setEnvironment] = useState<SessionEnvironment>('docker-linux');
  const [environments, setEnvironments] = useState<SessionEnvironment[]>(ENVIRONMENT_IDS);
  useEffect(() => {
    let live = true;
    get<SettingsView>('/api/settings')
      .then(({ settings }) => {
        if (!live) return;
        setProvider(settings.defaults.provider ?? 'claude-code');
        setEnvironment(settings.defaults.environment ?? 'docker-linux');
        // Settings are redacted (any string may come back null): keep only real environments.
        const known = settings.environments?.filter((e) => e !== null) ?? [];
        if (known.length) setEnvironments(known);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return { provider, setProvider, environment, setEnvironment, environments };
}

/** Creates the session, then closes the form and shows the new session. */
function useCreateSession(onDone: () => void) {
  const { busy, error, run } = useAction();
  const create = (body: {
    title: string;
    provider: string;
    environment: SessionEnvironment;
    repos: string[];
  }) =>
    run(async () => {
      const created = await post<SessionView>('/api/sessions', body);
      onDone();
      navigate(sessionPath(created.id));
    });
  return { busy, error, create };
}

function TitleField({ value, onChange }: { value: string; onChange: (title: string) => void }) {
  return (
    <>
      <label htmlFor="new-session-title">Title</label>
      <input
        id="new-session-title"
        value={value}
        maxLength={TITLE_MAX_LENGTH}
        required
        autoFocus
        onChange={(e) => onChange(e.target.value)}
      />
    </>
  );
}

/** The New session form: title, provider, environment and repositories; defaults from Settings. */
export function NewSessionForm({ onDone }: { onDone: () => void }) {
  const [title, setTitle] = useState('');
  const [repos, setRepos] = useState<string[]>([]);
  const choices = useNewSessionChoices();
  const { provider, environment } = choices;
  const { busy, error, create } = useCreateSession(onDone);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void create({ title: title.trim(), provider, environment, repos });
  };

  return (
    <form id="new-session-form" className="new-session" onSubmit={submit}>
      <TitleField value={title} onChange={setTitle} />
      <label htmlFor="new-session-provider">Provider</label>
      <ProviderSelect id="new-session-provider" value={provider} onChange={choices.setProvider} />
      <label htmlFor="new-session-environment">Environment</label>
      <EnvironmentSelect
        id="new-session-environment"
        value={environment}
        options={choices.environments}
        onChange={choices.setEnvironment}
      />
      <RepoPicker value={repos} onChange={setRepos} />
      <ErrorAlert error={error} />
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
