import { useEffect, useState } from 'react';
import { errorText, get } from '../api';
import type { PublicSettings, SettingsView } from '@sessionboxer/contracts';
import { Credentials } from './Credentials';
import { ApiKeysSettings } from './sandboxes/ApiKeysSettings';
import { EnvironmentsSettings } from './sandboxes/EnvironmentsSettings';
import { EgressSettings } from './EgressSettings';
import { GlobalSettings } from './GlobalSettings';
import { McpSettings } from './McpSettings';
import { TerminalMcpSettings } from './TerminalMcpSettings';
import { RepositoriesSettings } from './RepositoriesSettings';
import { ScheduledTasks } from './ScheduledTasks';

/** `/settings`: Global settings, MCP & connectors, Credentials, Scheduled tasks. */
export function SettingsPage() {
  const [settings, setSettings] = useState<PublicSettings | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    get<SettingsView>('/api/settings')
      .then((s) => setSettings(s.settings))
      .catch((e: unknown) => setError(errorText(e)));
  }, []);
  useEffect(() => {
    if (settings && location.hash)
      document.getElementById(location.hash.slice(1))?.scrollIntoView();
  }, [settings]);

  return (
    <div className="settings">
      <h1>Settings</h1>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {settings === null && !error && <p className="muted">Loading…</p>}
      {settings && (
        <>
          <GlobalSettings settings={settings} onSaved={setSettings} />
          <McpSettings settings={settings} onSaved={setSettings} />
          <TerminalMcpSettings settings={settings} onSaved={setSettings} />
        </>
      )}
      <RepositoriesSettings />
      <EgressSettings />
      <Credentials />
      <ApiKeysSettings />
      <EnvironmentsSettings />
      <ScheduledTasks />
    </div>
  );
}
