import { useEffect, useState } from 'react';
import { errorText, get } from '../../api';
import { ErrorAlert } from '../FormParts';
import { SandboxConversations } from './SandboxConversations';

/** A sandbox as the sandbox API answers it (the fields this page shows). */
interface SandboxRow {
  id: string;
  name: string;
  status: string;
  stopped_reason: string | null;
  size: string;
  cents_per_hour: number;
  cost_cents: number;
  metadata: Record<string, string>;
  created_at: string;
}

/**
 * `/sandboxes`: the default org's sandboxes with status, size, price, spend and metadata, and
 * a sandbox's agent conversations as transcripts.
 */
export function SandboxesPage() {
  const [rows, setRows] = useState<SandboxRow[] | null>(null);
  const [all, setAll] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState<SandboxRow | null>(null);
  useEffect(() => {
    get<{ sandboxes: SandboxRow[] }>(`/api/orgs/default/sandboxes?all=${all}`)
      .then((r) => setRows(r.sandboxes))
      .catch((e: unknown) => setError(errorText(e)));
  }, [all]);
  return (
    <div className="sandboxes">
      <h1>Sandboxes</h1>
      <p className="muted">
        Made with an API key over MCP (<code>/mcp</code>), REST (<code>/v1</code>) or{' '}
        <code>sessionboxer sandbox</code>; keys are under Settings → API keys.
      </p>
      <label>
        <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} /> Show
        deleted
      </label>
      <ErrorAlert error={error} />
      {rows && rows.length === 0 && <p className="muted">No sandboxes.</p>}
      {rows && rows.length > 0 && (
        <table aria-label="Sandboxes">
          <thead>
            <tr>
              <th>Name</th>
              <th>Status</th>
              <th>Size</th>
              <th>Price</th>
              <th>Spend</th>
              <th>Metadata</th>
              <th>Agents</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((s) => (
              <tr key={s.id}>
                <td>{s.name}</td>
                <td>{s.stopped_reason ? `${s.status} (${s.stopped_reason})` : s.status}</td>
                <td>{s.size}</td>
                <td>{s.cents_per_hour}¢/h</td>
                <td>{s.cost_cents}¢</td>
                <td>
                  {Object.entries(s.metadata)
                    .map(([k, v]) => `${k}=${v}`)
                    .join(', ')}
                </td>
                <td>
                  <button type="button" onClick={() => setShown(s)}>
                    Conversations of {s.name}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {shown && <SandboxConversations key={shown.id} sandbox={shown} />}
    </div>
  );
}
