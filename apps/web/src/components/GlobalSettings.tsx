import { useState, type FormEvent } from 'react';
import { patch } from '../api';
import { ENVIRONMENT_IDS, environmentName, PROVIDER_IDS, providerName } from '../format';
import { useAction } from '../hooks';
import type { Settings } from '../settings-types';
import type { SessionEnvironment } from '../types';

interface Props {
  settings: Settings;
  onSaved: (settings: Settings) => void;
}

/** The defaults a new session takes, and Auto QA after each of a person's turns. */
export function GlobalSettings({ settings, onSaved }: Props) {
  const [defaults, setDefaults] = useState(settings.defaults);
  const [autoQa, setAutoQa] = useState(settings.autoQa?.afterEachTurn ?? false);
  const [saved, setSaved] = useState(false);
  const { busy, error, run } = useAction();
  const providers = PROVIDER_IDS.includes(defaults.provider)
    ? PROVIDER_IDS
    : [defaults.provider, ...PROVIDER_IDS];

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      setSaved(false);
      const body = { defaults, autoQa: { afterEachTurn: autoQa } };
      const view = await patch<{ settings: Settings }>('/api/settings', body);
      onSaved(view.settings);
      setSaved(true);
    });
  };

  return (
    <section className="card" aria-labelledby="global-settings">
      <h2 id="global-settings">Global settings</h2>
      <form onSubmit={submit}>
        <h3>Defaults for new sessions</h3>
        <div className="field">
          <label htmlFor="default-provider">Default provider</label>
          <select
            id="default-provider"
            value={defaults.provider}
            onChange={(e) => setDefaults({ ...defaults, provider: e.target.value })}
          >
            {providers.map((p) => (
              <option key={p} value={p}>
                {providerName(p)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="default-model">Default model</label>
          <input
            id="default-model"
            value={defaults.model}
            maxLength={100}
            required
            onChange={(e) => setDefaults({ ...defaults, model: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor="default-environment">Default environment</label>
          <select
            id="default-environment"
            value={defaults.environment}
            onChange={(e) =>
              setDefaults({ ...defaults, environment: e.target.value as SessionEnvironment })
            }
          >
            {ENVIRONMENT_IDS.map((env) => (
              <option key={env} value={env}>
                {environmentName(env)}
              </option>
            ))}
          </select>
        </div>
        <div className="field checkbox">
          <input
            id="auto-qa"
            type="checkbox"
            checked={autoQa}
            onChange={(e) => setAutoQa(e.target.checked)}
          />
          <label htmlFor="auto-qa">Run Auto QA after each of my turns</label>
        </div>
        <div className="row">
          <button type="submit" className="primary" disabled={busy}>
            Save global settings
          </button>
          <span role="status" className="muted">
            {saved ? 'Saved' : ''}
          </span>
        </div>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
      </form>
    </section>
  );
}
