import { useEffect, useState, type FormEvent } from 'react';
import { get, patch } from '../api';
import { useAction } from '../hooks';
import type { Settings } from '../settings-types';
import type { AgentTools, PolicyView, SessionCreation } from '../types';
import { applyActionResult } from '../view-state';
import { AgentToolsField, SessionCreationField } from './PolicyFields';

interface Props {
  sessionId: string;
  policy: PolicyView | null;
}

type Draft = { agentTools: AgentTools | ''; sessionCreation: SessionCreation | '' };

function draftOf(policy: PolicyView | null): Draft {
  return {
    agentTools: policy?.own.agentTools ?? '',
    sessionCreation: policy?.own.sessionCreation ?? '',
  };
}

/**
 * The session's own MCP & connectors policy; "Global default" follows Settings. A change is
 * saved at once and applies from the agent's next turn.
 */
export function SessionSettings({ sessionId, policy }: Props) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(policy));
  const [global, setGlobal] = useState<Settings['sessionboxer'] | null>(null);
  const [saved, setSaved] = useState(false);
  const { busy, error, run } = useAction();

  useEffect(() => setDraft(draftOf(policy)), [policy]);
  useEffect(() => {
    get<{ settings: Settings }>('/api/settings')
      .then((s) => setGlobal(s.settings.sessionboxer))
      .catch(() => undefined);
  }, []);

  const save = (next: Draft) =>
    run(async () => {
      setSaved(false);
      const body = {
        agentTools: next.agentTools === '' ? null : next.agentTools,
        sessionCreation: next.sessionCreation === '' ? null : next.sessionCreation,
      };
      const view = await patch<PolicyView>(`/api/sessions/${sessionId}/policy`, body);
      applyActionResult(sessionId, { policy: view });
      setSaved(true);
    });
  const change = (next: Draft) => {
    setDraft(next);
    void save(next);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save(draft);
  };

  return (
    <section id="session-settings" className="card session-settings" aria-labelledby="ss-heading">
      <h2 id="ss-heading">Session settings</h2>
      <form onSubmit={submit}>
        <h3>MCP &amp; connectors</h3>
        <p className="muted">
          The sessionboxer server&apos;s policy for this session. Changes apply from the
          agent&apos;s next turn.
        </p>
        <AgentToolsField
          id="session-agent-tools"
          value={draft.agentTools}
          inherited={global?.agentTools ?? policy?.effective.agentTools ?? 'session'}
          onChange={(agentTools) => change({ ...draft, agentTools })}
        />
        <SessionCreationField
          id="session-session-creation"
          value={draft.sessionCreation}
          inherited={global?.sessionCreation ?? policy?.effective.sessionCreation ?? 'ask'}
          onChange={(sessionCreation) => change({ ...draft, sessionCreation })}
        />
        <div className="row">
          <button type="submit" disabled={busy}>
            Apply
          </button>
          <span role="status" className="muted">
            {busy ? 'Saving…' : saved ? 'Saved' : ''}
          </span>
        </div>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
      </form>
    </section>
  );
}
