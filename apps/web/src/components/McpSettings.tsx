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

/**
 * The server's rule for the cap (libs/domain settings validation: a whole number from 0 to
 * GLOBAL_CAP_MAX); null when `text` keeps it. An empty field is not 0: 0 blocks every
 * agent-created session, so it must be typed.
 */
export function globalCapProblem(text: string): string | null {
  const rule = `Global cap must be a whole number from 0 to ${GLOBAL_CAP_MAX}`;
  if (text.trim() === '') return `${rule} (type 0 to allow none); it is empty.`;
  const cap = Number(text);
  if (!Number.isInteger(cap) || cap < 0 || cap > GLOBAL_CAP_MAX) return `${rule}; ${text} is not.`;
  return null;
}

interface CapFieldProps {
  text: string;
  problem: string | null;
  onChange: (text: string) => void;
}

/** How many alive agent-created sessions the whole control plane allows. */
function GlobalCapField({ text, problem, onChange }: CapFieldProps) {
  return (
    <div className="field">
      <label htmlFor="global-cap">Global cap</label>
      <input
        id="global-cap"
        type="number"
        min={0}
        max={GLOBAL_CAP_MAX}
        step={1}
        value={text}
        aria-invalid={problem !== null}
        aria-describedby={problem ? 'global-cap-help global-cap-problem' : 'global-cap-help'}
        onChange={(e) => onChange(e.target.value)}
      />
      <p id="global-cap-help" className="muted">
        At most this many alive agent-created sessions on this control plane (0 to {GLOBAL_CAP_MAX};
        0 allows none).
      </p>
      {problem && (
        <p id="global-cap-problem" role="alert" className="error">
          {problem}
        </p>
      )}
    </div>
  );
}

/** The policy's fields: the two choices save as soon as they change, the cap only on submit. */
function SessionboxerPolicy({
  policy,
  cap,
  onSave,
}: {
  policy: Policy;
  cap: CapFieldProps;
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
      <GlobalCapField {...cap} />
    </>
  );
}

/**
 * MCP & connectors: the built-in servers, and the sessionboxer policy every session follows
 * unless it has its own. The two choices save at once; the cap with its button.
 */
export function McpSettings({ settings, onSaved }: Props) {
  // `policy` is what the server holds; the cap's field is text until it is saved.
  const [policy, setPolicy] = useState<Policy>(settings.sessionboxer);
  const [capText, setCapText] = useState(String(settings.sessionboxer.globalCap));
  const [problem, setProblem] = useState<string | null>(null);
  const { busy, error, run, saved, unsaved } = useSave();

  const save = (next: Policy) =>
    run(async () => {
      const view = await patch<SettingsView>('/api/settings', { sessionboxer: next });
      onSaved(view.settings);
      setPolicy(view.settings.sessionboxer);
    });
  // A choice saves at once, with the cap the server holds (never the field's unsaved text).
  const change = (next: Policy) => {
    setPolicy(next);
    void save(next);
  };
  const editCap = (text: string) => {
    setCapText(text);
    setProblem(null);
    unsaved();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const why = globalCapProblem(capText);
    setProblem(why);
    if (why === null) void save({ ...policy, globalCap: Number(capText) });
    else unsaved();
  };

  return (
    <section className="card" aria-labelledby="mcp-settings">
      <h2 id="mcp-settings">MCP &amp; connectors</h2>
      <p className="muted">
        Every agent gets the built-in <strong>desktop</strong> and <strong>sessionboxer</strong>{' '}
        servers; they are always on. The sessionboxer policy decides what the agent may do through
        it, from its next turn.
      </p>
      <form onSubmit={submit} noValidate>
        <h3>sessionboxer</h3>
        <SessionboxerPolicy
          policy={policy}
          cap={{ text: capText, problem, onChange: editCap }}
          onSave={change}
        />
        <SaveRow label="Save MCP & connectors" busy={busy} status={saved ? 'Saved' : ''} />
        <ErrorAlert error={error} />
      </form>
    </section>
  );
}
