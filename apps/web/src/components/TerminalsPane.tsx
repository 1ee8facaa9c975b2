import { useEffect, useMemo, useState } from 'react';
import { errorText, post } from '../api';
import { useRevealWhen } from '../hooks';
import type { TerminalListing } from '@sessionboxer/contracts';
import type { SessionState } from '../store';
import { LiveXterm } from './terminals/LiveXterm';
import { onTerminalRefused } from './terminals/session-terminal-frames';
import { boxTerminalSource } from './terminals/session-terminals-store';
import { TerminalPlayer } from './TerminalPlayer';

function terminalName(t: TerminalListing): string {
  return t.command?.length ? t.command.join(' ') : `Terminal ${t.id.slice(0, 8)}`;
}

interface TerminalProps {
  sessionId: string;
  terminal: TerminalListing;
  focused: boolean;
  /** The person just opened it: the keyboard goes to it. */
  autoFocus: boolean;
}

/**
 * One Terminal, live: its output so far from the history, then the box's bytes as they come;
 * what the person types goes to its PTY, and the box's refusal (an exited Terminal, a box
 * that does not run) shows under it.
 */
function LiveTerminal({ sessionId, terminal, focused, autoFocus }: TerminalProps) {
  const ref = useRevealWhen<HTMLElement>(focused || autoFocus);
  const [refusal, setRefusal] = useState<string | null>(null);
  const source = useMemo(() => boxTerminalSource(sessionId, terminal.id), [sessionId, terminal.id]);
  useEffect(() => onTerminalRefused(terminal.id, setRefusal), [terminal.id]);
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
        {new Date(terminal.createdAt).toLocaleString()}
      </p>
      <LiveXterm
        label={`Output of ${name}`}
        source={source}
        sourceKey={`${sessionId}/${terminal.id}`}
        autoFocus={autoFocus}
      />
      {refusal && (
        <p className="error" role="alert">
          {refusal}
        </p>
      )}
      <TerminalPlayer sessionId={sessionId} terminalId={terminal.id} />
    </article>
  );
}

interface Props {
  sessionId: string;
  terminals: TerminalListing[];
  focus: SessionState['focus'];
}

/** The session's Terminals, the person's and the ones the agent's ui_open started; all live. */
export function TerminalsPane({ sessionId, terminals, focus }: Props) {
  const [opening, setOpening] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [mine, setMine] = useState<string | null>(null);
  const open = () => {
    setOpening(true);
    setError(null);
    post<TerminalListing>(`/api/sessions/${sessionId}/terminals`)
      .then((t) => setMine(t.id))
      .catch((e: unknown) => setError(errorText(e)))
      .finally(() => setOpening(false));
  };
  return (
    <div className="pane-list">
      <p>
        <button type="button" onClick={open} disabled={opening}>
          New terminal
        </button>
      </p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {terminals.length === 0 && <p className="muted">No Terminals yet.</p>}
      {terminals.map((t) => (
        <LiveTerminal
          key={t.id}
          sessionId={sessionId}
          terminal={t}
          focused={focus?.terminalId === t.id}
          autoFocus={mine === t.id}
        />
      ))}
    </div>
  );
}
