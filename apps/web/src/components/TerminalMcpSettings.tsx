import { useState, type FormEvent } from 'react';
import { patch, put } from '../api';
import { useSave, useSavedToggle } from '../hooks';
import type { PublicSettings, SettingsView } from '@sessionboxer/contracts';
import { CheckboxField, ErrorAlert, SaveRow } from './FormParts';

interface Props {
  settings: PublicSettings;
  onSaved: (settings: PublicSettings) => void;
}

const DEBOUNCE_MAX = 10_000;

function given(settings: PublicSettings): boolean {
  return settings.mcpRegistry.some((e) => 'relay' in e && e.relay === 'terminals');
}

/**
 * The terminal MCP in Global settings: whether sessions' agents get it through the MCP registry
 * (saved at once), and how its `output_available` notifications are debounced.
 */
export function TerminalMcpSettings({ settings, onSaved }: Props) {
  const [debounce, setDebounce] = useState(String(settings.notifications.mcp.debounceMs));
  const save = useSave();
  const toggle = useSavedToggle(given(settings), async (next) => {
    const path = '/api/settings/mcp-registry/relays/terminals';
    const view = await put<SettingsView>(path, { given: next });
    onSaved(view.settings);
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save.run(async () => {
      const debounceMs = debounce.trim() === '' ? Number.NaN : Number(debounce);
      const body = { notifications: { mcp: { debounceMs } } };
      const view = await patch<SettingsView>('/api/settings', body);
      onSaved(view.settings);
    });
  };

  return (
    <section className="card" aria-labelledby="terminal-mcp-settings">
      <h2 id="terminal-mcp-settings">Terminal MCP</h2>
      <CheckboxField
        id="terminals-for-agents"
        checked={toggle.checked}
        disabled={toggle.busy}
        onChange={toggle.set}
      >
        Give sessions&apos; agents the terminal MCP (<code>terminals</code> in their .mcp.json, from
        their next turn); every terminal they ask for still waits for your Allow
      </CheckboxField>
      <ErrorAlert error={toggle.error} />
      <form onSubmit={submit}>
        <div className="field">
          <label htmlFor="terminal-debounce">Notification debounce (ms)</label>
          <input
            id="terminal-debounce"
            type="number"
            min={0}
            max={DEBOUNCE_MAX}
            value={debounce}
            aria-describedby="terminal-debounce-help"
            onChange={(e) => setDebounce(e.target.value)}
          />
          <p id="terminal-debounce-help" className="muted">
            notifications.mcp.debounceMs: 0–{DEBOUNCE_MAX}, default 100. New terminals take it.
          </p>
        </div>
        <SaveRow label="Save terminal MCP" busy={save.busy} status={save.saved ? 'Saved' : ''} />
        <ErrorAlert error={save.error} />
      </form>
    </section>
  );
}
