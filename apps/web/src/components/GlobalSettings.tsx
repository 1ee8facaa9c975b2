import { useState, type FormEvent } from 'react';
import { patch } from '../api';
import { useSave } from '../hooks';
import type { PublicSettings, SessionEnvironment, SettingsView } from '@sessionboxer/contracts';
import { DefaultsFields } from './DefaultsFields';
import { CheckboxField, ErrorAlert, SaveRow } from './FormParts';

/** The environments the server accepts for a session (and so as the default). */
function environmentsOf(settings: PublicSettings): SessionEnvironment[] {
  const listed = (settings.environments ?? []).filter((e): e is SessionEnvironment => e !== null);
  return listed.length > 0 ? listed : ['docker-linux'];
}

interface Props {
  settings: PublicSettings;
  onSaved: (settings: PublicSettings) => void;
}

/** The defaults a new session takes, and Auto QA after each of a person's turns. */
export function GlobalSettings({ settings, onSaved }: Props) {
  const [defaults, setDefaults] = useState(settings.defaults);
  const [autoQa, setAutoQa] = useState(settings.autoQa?.afterEachTurn ?? false);
  const { busy, error, run, saved } = useSave();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const body = { defaults, autoQa: { afterEachTurn: autoQa } };
      const view = await patch<SettingsView>('/api/settings', body);
      onSaved(view.settings);
    });
  };

  return (
    <section className="card" aria-labelledby="global-settings">
      <h2 id="global-settings">Global settings</h2>
      <form onSubmit={submit}>
        <DefaultsFields
          defaults={defaults}
          environments={environmentsOf(settings)}
          onChange={setDefaults}
        />
        <CheckboxField id="auto-qa" checked={autoQa} onChange={setAutoQa}>
          Run Auto QA after each of my turns
        </CheckboxField>
        <SaveRow label="Save global settings" busy={busy} status={saved ? 'Saved' : ''} />
        <ErrorAlert error={error} />
      </form>
    </section>
  );
}
