import { useEffect, useState, type FormEvent } from 'react';
import { get, patch } from '../api';
import { useSave } from '../hooks';
import type {
  AgentToolsPolicy,
  PolicyView,
  PublicSettings,
  SessionCreationPolicy,
  SettingsView,
} from '@sessionboxer/contracts';
import { applyActionResult } from '../view-state';
import { ErrorAlert, SaveRow } from './FormParts';
import { AgentToolsField, SessionCreationField } from './PolicyFields';

interface Props {
  sessionId: string;
  policy: PolicyView | null;
}

/** The session's own choices; '' is "Global default". */
type Draft = { agentTools: AgentToolsPolicy | ''; sessionCreation: SessionCreationPolicy | '' };
type Inherited = { agentTools: AgentToolsPolicy; sessionCreation: SessionCreationPolicy };

function draftOf(policy: PolicyView | null): Draft {
  return {
    agentTools: policy?.own.agentTools ?? '',
    sessionCreation: policy?.own.sessionCreation ?? '',
  };
}

/** The PATCH body of a draft: null for a choice that follows the global default. */
function policyBody(draft: Draft) {
  return {
    agentTools: draft.agentTools === '' ? null : draft.agentTools,
    sessionCreation: draft.sessionCreation === '' ? null : draft.sessionCreation,
  };
}

/** What "Global default" stands for: Settings' policy once loaded, else the effective one. */
function useInherited(policy: PolicyView | null): Inherited {
  const [global, setGlobal] = useState<PublicSettings['sessionboxer'] | null>(null);
  useEffect(() => {
    get<SettingsView>('/api/settings')
      .then((s) => setGlobal(s.settings.sessionboxer))
      .catch(() => undefined);
  }, []);
  return {
    agentTools: global?.agentTools ?? policy?.effective.agentTools ?? 'session',
    sessionCreation: global?.sessionCreation ?? policy?.effective.sessionCreation ?? 'ask',
  };
}

function OwnPolicyFields({
  draft,
  inherited,
  onChange,
}: {
  draft: Draft;
  inherited: Inherited;
  onChange: (draft: Draft) => void;
}) {
  return (
    <>
      <AgentToolsField
        id="session-agent-tools"
        value={draft.agentTools}
        inherited={inherited.agentTools}
        onChange={(agentTools) => onChange({ ...draft, agentTools })}
      />
      <SessionCreationField
        id="session-session-creation"
        value={draft.sessionCreation}
        inherited={inherited.sessionCreation}
        onChange={(sessionCreation) => onChange({ ...draft, sessionCreation })}
      />
    </>
  );
}

/** The draft of the session's own policy; a change saves at once, as does a submit. */
function usePolicyDraft(sessionId: string, policy: PolicyView | null) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(policy));
  const { busy, error, run, saved } = useSave();
  useEffect(() => setDraft(draftOf(policy)), [policy]);

  const save = (next: Draft) =>
    run(async () => {
      const route = `/api/sessions/${sessionId}/policy`;
      const view = await patch<PolicyView>(route, policyBody(next));
      applyActionResult(sessionId, { policy: view });
    });
  const change = (next: Draft) => {
    setDraft(next);
    void save(next);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save(draft);
  };
  return { draft, busy, error, saved, change, submit };
}

/**
 * The session's own MCP & connectors policy; "Global default" follows Settings. A change is
 * saved at once and applies from the agent's next turn.
 */
export function SessionSettings({ sessionId, policy }: Props) {
  const { draft, busy, error, saved, change, submit } = usePolicyDraft(sessionId, policy);
  const inherited = useInherited(policy);
  return (
    <section id="session-settings" className="card session-settings" aria-labelledby="ss-heading">
      <h2 id="ss-heading">Session settings</h2>
      <form onSubmit={submit}>
        <h3>MCP &amp; connectors</h3>
        <p className="muted">
          The sessionboxer server&apos;s policy for this session. Changes apply from the
          agent&apos;s next turn.
        </p>
        <OwnPolicyFields draft={draft} inherited={inherited} onChange={change} />
        <SaveRow
          label="Apply"
          busy={busy}
          status={busy ? 'Saving…' : saved ? 'Saved' : ''}
          primary={false}
        />
        <ErrorAlert error={error} />
      </form>
    </section>
  );
}
