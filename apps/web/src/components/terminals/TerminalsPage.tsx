import { useEffect, useState } from 'react';
import type { SshTerminalView } from '@sessionboxer/contracts';
import { loadTerminals, useTerminals } from './terminals-store';
import { LiveXterm } from './LiveXterm';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

function who(t: SshTerminalView): string {
  const by = t.approvedBy;
  if (by === null) return '—';
  return by.kind === 'person' ? by.id : by.kind;
}

/** Every SSH terminal: who asked, on which endpoint, who approved it and when; one live. */
export function TerminalsPage() {
  const list = useTerminals();
  const [open, setOpen] = useState<string | null>(null);
  useEffect(() => {
    void loadTerminals().catch(() => undefined);
  }, []);
  return (
    <>
      <h1>Terminals</h1>
      {list.length === 0 && (
        <p>No SSH terminal yet. Agents open them through the terminal MCP server.</p>
      )}
      {list.length > 0 && (
        <table className="terminals-table">
          <thead>
            <tr>
              <th scope="col">Endpoint</th>
              <th scope="col">Asked by</th>
              <th scope="col">Status</th>
              <th scope="col">Approved by</th>
              <th scope="col">Approved at</th>
              <th scope="col">Output</th>
            </tr>
          </thead>
          <tbody>
            {list.map((t) => (
              <tr key={t.terminalId}>
                <td>
                  {t.endpoint.name}{' '}
                  <code>
                    {t.endpoint.user}@{t.endpoint.host}:{t.endpoint.port}
                  </code>
                </td>
                <td>{t.requester}</td>
                <td>
                  {t.status}
                  {t.endReason ? ` (${t.endReason})` : ''}
                </td>
                <td>{who(t)}</td>
                <td>{when(t.approvedAt)}</td>
                <td>
                  <button
                    type="button"
                    onClick={() => setOpen(open === t.terminalId ? null : t.terminalId)}
                  >
                    {open === t.terminalId ? 'Hide' : 'Show'} output of {t.endpoint.name}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {open && <LiveXterm key={open} terminalId={open} />}
    </>
  );
}
