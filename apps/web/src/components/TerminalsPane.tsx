import { useCallback, useEffect, useState } from 'react';
import { errorText, get } from '../api';
import { useRevealWhen } from '../hooks';
import type { TerminalListing, TerminalOutput } from '@sessionboxer/contracts';
import type { SessionState } from '../store';
import { TerminalPlayer } from './TerminalPlayer';

function terminalName(t: TerminalListing): string {
  return t.command?.length ? t.command.join(' ') : `Terminal ${t.id.slice(0, 8)}`;
}

/** The Terminal's retained output: read at once, when it exits, and on `load`. */
function useTerminalText(sessionId: string, terminal: TerminalListing) {
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    get<TerminalOutput>(`/api/sessions/${sessionId}/terminals/${terminal.id}`)
      .then((t) => {
        setText(t.text);
        setError(null);
      })
      .catch((e: unknown) => setError(errorText(e)));
  }, [sessionId, terminal.id]);
  useEffect(load, [load, terminal.exitCode]);
  return { text, error, load };
}

interface OutputProps {
  sessionId: string;
  terminal: TerminalListing;
  focused: boolean;
}

/** One Terminal and its retained output, read when it shows and whenever it changes. */
function TerminalOutput({ sessionId, terminal, focused }: OutputProps) {
  const { text, error, load } = useTerminalText(sessionId, terminal);
  const ref = useRevealWhen<HTMLElement>(focused);
  const name = terminalName(terminal);
  return (
    <article
      ref={ref}
      className={focused ? 'card terminal focused' : 'card terminal'}
      aria-label={name}
    >
      <h3>{name}</h3>
      <p className="muted">
        {terminal.exitCode === null ? 'running' : `exited with ${terminal.exitCode}`} · opened{' '}
        {new Date(terminal.createdAt).toLocaleString()}{' '}
        <button type="button" onClick={load}>
          Refresh output
        </button>
      </p>
      {error && <p className="error">{error}</p>}
      <pre className="terminal-output" tabIndex={0} aria-label={`Output of ${name}`}>
        {text ?? 'Loading…'}
      </pre>
      <TerminalPlayer sessionId={sessionId} terminalId={terminal.id} />
    </article>
  );
}

interface Props {
  sessionId: string;
  terminals: TerminalListing[];
  focus: SessionState['focus'];
}

/** The session's Terminals, the person's and the ones the agent's ui_open started. */
export function TerminalsPane({ sessionId, terminals, focus }: Props) {
  if (terminals.length === 0) return <p className="muted">No Terminals yet.</p>;
  return (
    <div className="pane-list">
      {terminals.map((t) => (
        <TerminalOutput
          key={t.id}
          sessionId={sessionId}
          terminal={t}
          focused={focus?.terminalId === t.id}
        />
      ))}
    </div>
  );
}
