import { useMemo, useState } from 'react';
import { sessionNode } from '../hooks';
import { useStore } from '../store';
import type { TranscriptEntry } from '../types';
import { Panes } from './Panes';
import { PromptBox } from './PromptBox';
import { Queue } from './Queue';
import { SessionHeader } from './SessionHeader';
import { SessionSettings } from './SessionSettings';
import { Transcript } from './Transcript';

/** Whether the agent's last turn is still running: a prompt with no turn_finished after it. */
function turnRunning(entries: TranscriptEntry[]): boolean {
  let running = false;
  for (const e of entries) {
    if (e.kind !== 'event') continue;
    if (e.event.type === 'prompt') running = true;
    else if (e.event.type === 'turn_finished') running = false;
  }
  return running;
}

/** `/sessions/:id`: the transcript, the prompt box and queue, and the panes. */
export function SessionView({ sessionId }: { sessionId: string }) {
  const view = useStore((s) => (s.view?.sessionId === sessionId ? s.view : null));
  const node = useStore((s) => sessionNode(s.sidebar, sessionId));
  const [settingsOpen, setSettingsOpen] = useState(false);
  const entries = view?.entries;
  const running = useMemo(() => turnRunning(entries ?? []), [entries]);

  if (view === null || (view.loading && view.parts.session === null && node === null))
    return (
      <>
        <h1>{node?.title ?? 'Loading session…'}</h1>
        <p className="muted">Loading…</p>
      </>
    );
  const session = view.parts.session;
  if (view.error !== null && session === null)
    return (
      <>
        <h1>Session not found</h1>
        <p role="alert" className="error">
          {view.error}
        </p>
      </>
    );

  const title = node?.title ?? session?.title ?? 'Session';
  const status = session?.status ?? node?.status ?? 'running';
  const provider = session?.provider ?? node?.provider ?? 'claude-code';
  return (
    <div className="session">
      <SessionHeader
        sessionId={sessionId}
        title={title}
        session={session}
        status={status}
        settingsOpen={settingsOpen}
        onToggleSettings={() => setSettingsOpen((o) => !o)}
      />
      {settingsOpen && <SessionSettings sessionId={sessionId} policy={view.parts.policy} />}
      <div className="session-body">
        <section className="conversation" aria-label="Conversation">
          <Transcript
            sessionId={sessionId}
            entries={view.entries}
            approvals={view.parts.approvals}
            provider={provider}
          />
          <Queue sessionId={sessionId} queue={view.parts.queue} />
          <PromptBox sessionId={sessionId} turnRunning={running} stopped={status === 'stopped'} />
        </section>
        <Panes view={view} />
      </div>
    </div>
  );
}
