import { useMemo, useState, type CSSProperties } from 'react';
import { sessionNode } from '../hooks';
import { useStore, type SessionState } from '../store';
import { Panes } from './Panes';
import { PromptBox } from './PromptBox';
import { Queue } from './Queue';
import { SessionHeader } from './SessionHeader';
import { SessionSettings } from './SessionSettings';
import { SplitHandle, useSplit } from './SplitHandle';
import { Transcript } from './Transcript';
import { SessionUsage } from './transcript/TurnEnd';
import { activityOf, turnRunning } from '../view-state';

interface ConversationProps {
  view: SessionState;
  provider: string;
  stopped: boolean;
}

/** The transcript with the queue and the prompt box under it. */
function Conversation({ view, provider, stopped }: ConversationProps) {
  const { sessionId, entries, parts } = view;
  const running = useMemo(() => turnRunning(entries), [entries]);
  return (
    <section className="conversation" aria-label="Conversation">
      <Transcript
        sessionId={sessionId}
        entries={entries}
        loading={view.loading}
        approvals={parts.approvals}
        provider={provider}
      />
      <SessionUsage sessionId={sessionId} />
      <Queue sessionId={sessionId} queue={parts.queue} />
      <PromptBox sessionId={sessionId} turnRunning={running} stopped={stopped} />
    </section>
  );
}

/** What shows until the session is in: its title (once the tree has it), or why it is not. */
function SessionPending({ title, error }: { title: string; error: string | null }) {
  return (
    <>
      <h1>{title}</h1>
      {error === null ? (
        <p className="muted">Loading…</p>
      ) : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </>
  );
}

/** `/sessions/:id`: the transcript, the prompt box and queue, and the panes. */
export function SessionView({ sessionId }: { sessionId: string }) {
  const view = useStore((s) => (s.view?.sessionId === sessionId ? s.view : null));
  const node = useStore((s) => sessionNode(s.sidebar, sessionId));
  const connected = useStore((s) => s.connected);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const working = useMemo(() => turnRunning(view?.entries ?? []), [view?.entries]);
  const [split, setSplit] = useSplit();

  if (view === null || (view.loading && view.parts.session === null && node === null))
    return <SessionPending title={node?.title ?? 'Loading session…'} error={null} />;
  const session = view.parts.session;
  // With the socket down the server is likely gone, not the session: it loads again once back.
  if (view.error !== null && session === null && !connected)
    return (
      <SessionPending
        title="Cannot reach the server"
        error={`${view.error}. The session loads again once the server is back.`}
      />
    );
  if (view.error !== null && session === null)
    return <SessionPending title="Session not found" error={view.error} />;

  const status = session?.status ?? node?.status ?? 'running';
  const provider = session?.provider ?? node?.provider ?? 'claude-code';
  return (
    <div className="session">
      <SessionHeader
        sessionId={sessionId}
        title={node?.title ?? session?.title ?? 'Session'}
        session={session}
        status={status}
        activity={activityOf(status, working)}
        settingsOpen={settingsOpen}
        onToggleSettings={() => setSettingsOpen((o) => !o)}
      />
      {settingsOpen && <SessionSettings sessionId={sessionId} policy={view.parts.policy} />}
      <div className="session-body" style={{ '--split': `${split}%` } as CSSProperties}>
        <Conversation view={view} provider={provider} stopped={status === 'stopped'} />
        <SplitHandle percent={split} onChange={setSplit} />
        <Panes view={view} />
      </div>
    </div>
  );
}
