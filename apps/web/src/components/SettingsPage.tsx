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
import { GitHubSettings } from './settings/GitHubSettings';
import { GitIdentitySettings } from './settings/GitIdentitySettings';
import { McpRegistrySettings } from './settings/McpRegistrySettings';

/** `/settings`: Global settings, MCP & connectors, GitHub, Credentials, Scheduled tasks, … */
export function SettingsPage() {
  const [view, setView] = useState<SettingsView | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    get<SettingsView>('/api/settings')
      .then(setView)
      .catch((e: unknown) => setError(errorText(e)));
  }, []);
  const settings = view?.settings ?? null;
  const setSettings = (next: PublicSettings) => setView((v) => v && { ...v, settings: next });
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
          <McpRegistrySettings settings={settings} onSaved={setView} />
          <TerminalMcpSettings settings={settings} onSaved={setSettings} />
        </>
      )}
      <RepositoriesSettings />
      {view && (
        <>
          <GitHubSettings view={view} onSaved={setView} />
          <GitIdentitySettings view={view} onSaved={setView} />
        </>
      )}
      <EgressSettings />
      <Credentials />
      <ApiKeysSettings />
      <EnvironmentsSettings />
      <ScheduledTasks />
    </div>
  );
}
