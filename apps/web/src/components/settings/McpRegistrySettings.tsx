import { useState, type FormEvent } from 'react';
import { del, put } from '../../api';
import { useAction } from '../../hooks';
import type { PublicSettings, SettingsView } from '@sessionboxer/contracts';
import { useConfirm } from '../ConfirmDialog';
import { ErrorAlert } from '../FormParts';
import { serverBody } from './mcp-server-form';

interface Props {
  settings: PublicSettings;
  onSaved: (view: SettingsView) => void;
}

type Entry = PublicSettings['mcpRegistry'][number];
const ROUTE = '/api/settings/mcp-registry/servers';

/** One server: its command (a secret in it shows as •••) and its env's names, never values. */
function ServerItem({ entry, onSaved }: { entry: Entry; onSaved: Props['onSaved'] }) {
  const { busy, error, run } = useAction();
  const { confirm, dialog } = useConfirm();
  if ('relay' in entry)
    return (
      <li className="card">
        <strong>{entry.name}</strong>{' '}
        <span className="muted">(Sessionboxer&apos;s own, given under Terminal MCP)</span>
      </li>
    );
  const remove = async () => {
    const yes = await confirm({
      title: `Remove the MCP server “${entry.name}”?`,
      body: 'Sessions get it no more from their next turn; its env values are forgotten.',
      action: 'Remove',
    });
    if (yes) await run(async () => onSaved(await del<SettingsView>(`${ROUTE}/${entry.name}`)));
  };
  const keys = Object.keys(entry.env);
  return (
    <li className="card">
      <strong>{entry.name}</strong>
      <pre>{entry.command.map((a) => a ?? '•••').join(' ')}</pre>
      <p className="muted">env: {keys.length > 0 ? keys.join(', ') : 'none'}</p>
      <button type="button" className="danger" disabled={busy} onClick={() => void remove()}>
        Remove {entry.name}
      </button>
      <ErrorAlert error={error} />
      {dialog}
    </li>
  );
}

/** The add / replace form: a server of a name already listed is replaced. */
function AddServer({ onSaved }: { onSaved: Props['onSaved'] }) {
  const [name, setName] = useState('');
  const [command, setCommand] = useState('');
  const [env, setEnv] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const checked = serverBody(name.trim(), command, env);
    setProblem('problem' in checked ? checked.problem : null);
    if ('body' in checked)
      void run(async () => {
        onSaved(await put<SettingsView>(`${ROUTE}/${name.trim()}`, checked.body));
        setName('');
        setCommand('');
        setEnv('');
      });
  };
  return (
    <form onSubmit={submit} aria-labelledby="mcp-add">
      <h3 id="mcp-add">Add or replace a server</h3>
      <div className="field">
        <label htmlFor="mcp-name">Server name</label>
        <input id="mcp-name" value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="mcp-command">Command (one argument per line)</label>
        <textarea
          id="mcp-command"
          rows={3}
          value={command}
          onChange={(e) => setCommand(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="mcp-env">Environment (KEY=value per line; KEY alone keeps its value)</label>
        <textarea id="mcp-env" rows={3} value={env} onChange={(e) => setEnv(e.target.value)} />
      </div>
      <button type="submit" className="primary" disabled={busy}>
        Save server
      </button>
      <ErrorAlert error={problem ?? error} />
    </form>
  );
}

/**
 * Settings → MCP registry: the servers every session's agent gets beside desktop and
 * sessionboxer, in its .mcp.json from its next turn. Values of env never come back.
 */
export function McpRegistrySettings({ settings, onSaved }: Props) {
  return (
    <section className="card" aria-labelledby="mcp-registry-settings">
      <h2 id="mcp-registry-settings">MCP registry</h2>
      <ul aria-label="MCP servers">
        {settings.mcpRegistry.map((entry) => (
          <ServerItem key={entry.name} entry={entry} onSaved={onSaved} />
        ))}
      </ul>
      {settings.mcpRegistry.length === 0 && <p className="muted">No servers yet.</p>}
      <AddServer onSaved={onSaved} />
    </section>
  );
}
