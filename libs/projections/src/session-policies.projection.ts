import type { SessionPolicy, SessionPolicySet } from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import type { DocumentChange, Projection } from './projection';
import type { ReadModelReader } from './store/read-model-store';

/** A session's own policy as last set; a session with none follows the global default. */
export interface SessionPolicyDoc extends SessionPolicy {
  sessionId: string;
  at: string;
}

function apply(event: RecordedEvent): DocumentChange<SessionPolicyDoc>[] {
  if (event.type !== 'SessionPolicySet') return [];
  const { sessionId, agentTools, sessionCreation, at } = (event as unknown as SessionPolicySet)
    .data;
  const doc = { sessionId, agentTools, sessionCreation, at };
  return [{ id: sessionId, partition: 'sessions', order: event.position, doc }];
}

export const sessionPoliciesProjection: Projection<SessionPolicyDoc> = {
  name: 'session_policies',
  version: 1,
  handles: ['SessionPolicySet'],
  apply,
};

export interface SessionPolicyQueries {
  /** The session's own values (null: follow the global default). */
  get(sessionId: string): SessionPolicy;
}

export function sessionPolicyQueries(reader: ReadModelReader): SessionPolicyQueries {
  return {
    get(sessionId) {
      const doc = reader.get(sessionPoliciesProjection, sessionId);
      return { agentTools: doc?.agentTools ?? null, sessionCreation: doc?.sessionCreation ?? null };
    },
  };
}
