import { useEffect, useMemo, useState } from 'react';
import type { SshTerminalOutputPage, SshTerminalView } from '@sessionboxer/contracts';
import { get } from '../../api';
import { loadTerminals, onTerminalOutput, useTerminals } from './terminals-store';
import { bytesOf, LiveXterm, type XtermSource } from './LiveXterm';

/** An SSH terminal's output: pages read by offset, then its `terminal.output` frames. */
function sshSource(terminalId: string): XtermSource {
  return {
    page: (after) =>
      get<SshTerminalOutputPage>(
        `/api/terminals/${encodeURIComponent(terminalId)}/output?afterOffset=${after}&limit=1048576`,
      ),
    subscribe: (listener) =>
      onTerminalOutput((f) => {
        if (f.terminalId === terminalId) listener(f.offset, bytesOf(f.data));
      }),
  };
}

function SshXterm({ terminalId }: { terminalId: string }) {
  const source = useMemo(() => sshSource(terminalId), [terminalId]);
  return (
    <LiveXterm label={`Output of terminal ${terminalId}`} source={source} sourceKey={terminalId} />
  );
}

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
      {open && <SshXterm key={open} terminalId={open} />}
    </>
  );
}
