import { useState, type FormEvent } from 'react';
import { patch } from '../api';
import { useSave } from '../hooks';
import type { PublicSettings, SettingsView } from '@sessionboxer/contracts';
import { ErrorAlert, SaveRow } from './FormParts';
import { AgentToolsField, SessionCreationField } from './PolicyFields';
import { GLOBAL_CAP_MAX } from '@sessionboxer/domain/limits';

interface Props {
  settings: PublicSettings;
  onSaved: (settings: PublicSettings) => void;
}

type Policy = PublicSettings['sessionboxer'];

/** How many alive agent-created sessions the whole control plane allows. */
function GlobalCapField({ value, onChange }: { value: number; onChange: (cap: number) => void }) {
  return (
    <div className="field">
      <label htmlFor="global-cap">Global cap</label>
      <input
        id="global-cap"
        type="number"
        min={0}
        max={GLOBAL_CAP_MAX}
        value={value}
        aria-describedby="global-cap-help"
        onChange={(e) => onChange(Number(e.target.value))}
      />
      <p id="global-cap-help" className="muted">
        At most this many alive agent-created sessions on this control plane.
      </p>
    </div>
  );
}

/** The policy's fields: the two choices save as soon as they change, the cap only on submit. */
function SessionboxerPolicy({
  policy,
  onChange,
  onSave,
}: {
  policy: Policy;
  onChange: (policy: Policy) => void;
  onSave: (policy: Policy) => void;
}) {
  return (
    <>
      <AgentToolsField
        id="global-agent-tools"
        value={policy.agentTools ?? ''}
        onChange={(v) => v !== '' && onSave({ ...policy, agentTools: v })}
      />
      <SessionCreationField
        id="global-session-creation"
        value={policy.sessionCreation ?? ''}
        onChange={(v) => v !== '' && onSave({ ...policy, sessionCreation: v })}
      />
      <GlobalCapField
        value={policy.globalCap}
        onChange={(globalCap) => onChange({ ...policy, globalCap })}
      />
    </>
  );
}

/**
 * MCP & connectors: the built-in servers, and the sessionboxer policy every session follows
 * unless it has its own. The two choices save at once; the cap with its button.
 */
export function McpSettings({ settings, onSaved }: Props) {
  const [policy, setPolicy] = useState<Policy>(settings.sessionboxer);
  const { busy, error, run, saved } = useSave();

  const save = (next: Policy) =>
    run(async () => {
      const view = await patch<SettingsView>('/api/settings', { sessionboxer: next });
      onSaved(view.settings);
      setPolicy(view.settings.sessionboxer);
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
        <SessionboxerPolicy policy={policy} onChange={setPolicy} onSave={change} />
        <SaveRow label="Save MCP & connectors" busy={busy} status={saved ? 'Saved' : ''} />
        <ErrorAlert error={error} />
      </form>
    </section>
  );
}
