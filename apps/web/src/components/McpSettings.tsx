import { useState, type FormEvent } from 'react';
import { patch } from '../api';
import { useAction } from '../hooks';
import type { Settings } from '../settings-types';
import { AgentToolsField, SessionCreationField } from './PolicyFields';

interface Props {
  settings: Settings;
  onSaved: (settings: Settings) => void;
}

type Policy = Settings['sessionboxer'];

/**
 * MCP & connectors: the built-in servers, and the sessionboxer policy every session follows
 * unless it has its own. The two choices save at once; the cap with its button.
 */
export function McpSettings({ settings, onSaved }: Props) {
  const [policy, setPolicy] = useState<Policy>(settings.sessionboxer);
  const [saved, setSaved] = useState(false);
  const { busy, error, run } = useAction();

  const save = (next: Policy) =>
    run(async () => {
      setSaved(false);
      const view = await patch<{ settings: Settings }>('/api/settings', { sessionboxer: next });
      onSaved(view.settings);
      setPolicy(view.settings.sessionboxer);
      setSaved(true);
    });
  const change = (next: Policy) => {
    setPolicy(next);
    void save(next);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save(policy);
  };

  return (
    <section className="card" aria-labelledby="mcp-settings">
      <h2 id="mcp-settings">MCP &amp; connectors</h2>
      <p className="muted">
        Every agent gets the built-in <strong>desktop</strong> and <strong>sessionboxer</strong>{' '}
        servers; they are always on. The sessionboxer policy decides what the agent may do through
        it, from its next turn.
      </p>
      <form onSubmit={submit}>
        <h3>sessionboxer</h3>
        <AgentToolsField
          id="global-agent-tools"
          value={policy.agentTools}
          onChange={(v) => v !== '' && change({ ...policy, agentTools: v })}
        />
        <SessionCreationField
          id="global-session-creation"
          value={policy.sessionCreation}
          onChange={(v) => v !== '' && change({ ...policy, sessionCreation: v })}
        />
        <div className="field">
          <label htmlFor="global-cap">Global cap</label>
          <input
            id="global-cap"
            type="number"
            min={0}
            max={1000}
            value={policy.globalCap}
            aria-describedby="global-cap-help"
            onChange={(e) => setPolicy({ ...policy, globalCap: Number(e.target.value) })}
          />
          <p id="global-cap-help" className="muted">
            At most this many alive agent-created sessions on this control plane.
          </p>
        </div>
        <div className="row">
          <button type="submit" className="primary" disabled={busy}>
            Save MCP &amp; connectors
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
