import { assertNever, type Command, type Decider, type DomainEvent } from '../kernel';
import { exactId, invalid, isPlainObject, oneOf, onlyKeys } from '../kernel/validation';
import {
  AGENT_TOOLS_POLICIES,
  SESSION_CREATION_POLICIES,
  type AgentToolsPolicy,
  type SessionCreationPolicy,
} from '../settings/settings.state';

/**
 * A session's own sessionboxer policy (Advanced… / Session settings → MCP & connectors): what
 * its agent may do, and whether its session creations ask a person. null follows the global
 * default in Settings. Its own stream, `policy-<sessionId>`, so setting it never races the
 * session's other commands.
 */
export interface SessionPolicy {
  agentTools: AgentToolsPolicy | null;
  sessionCreation: SessionCreationPolicy | null;
}

export type SetSessionPolicy = Command<
  'SetSessionPolicy',
  {
    sessionId: string;
    agentTools?: AgentToolsPolicy | null;
    sessionCreation?: SessionCreationPolicy | null;
  }
>;

export type SessionPolicySet = DomainEvent<
  'SessionPolicySet',
  SessionPolicy & { sessionId: string; previous: SessionPolicy; at: string }
>;

export interface SessionPolicyState {
  policy: SessionPolicy;
}

export const FOLLOW_GLOBAL: SessionPolicy = { agentTools: null, sessionCreation: null };

export function sessionPolicyStream(sessionId: string): string {
  return `policy-${exactId(sessionId, 'sessionId')}`;
}

function field<T extends string>(
  value: unknown,
  name: string,
  allowed: readonly T[],
  current: T | null,
) {
  if (value === undefined) return current;
  if (value === null) return null;
  return oneOf(value, name, allowed);
}

function set(command: SetSessionPolicy, state: SessionPolicyState): SessionPolicySet[] {
  const { data, metadata } = command;
  if (!isPlainObject(data)) throw invalid('', 'the policy must be an object');
  onlyKeys(data, '', ['sessionId', 'agentTools', 'sessionCreation']);
  if (data.agentTools === undefined && data.sessionCreation === undefined) {
    throw invalid(
      'agentTools',
      'give agentTools or sessionCreation (null follows the global default)',
    );
  }
  const previous = state.policy;
  const policy: SessionPolicy = {
    agentTools: field(data.agentTools, 'agentTools', AGENT_TOOLS_POLICIES, previous.agentTools),
    sessionCreation: field(
      data.sessionCreation,
      'sessionCreation',
      SESSION_CREATION_POLICIES,
      previous.sessionCreation,
    ),
  };
  if (
    policy.agentTools === previous.agentTools &&
    policy.sessionCreation === previous.sessionCreation
  ) {
    return [];
  }
  const sessionId = exactId(data.sessionId, 'sessionId');
  return [{ type: 'SessionPolicySet', data: { sessionId, ...policy, previous, at: metadata.at } }];
}

function decide(command: SetSessionPolicy, state: SessionPolicyState): SessionPolicySet[] {
  switch (command.type) {
    case 'SetSessionPolicy':
      return set(command, state);
    default:
      return assertNever(command.type);
  }
}

function evolve(_state: SessionPolicyState, event: SessionPolicySet): SessionPolicyState {
  const { agentTools, sessionCreation } = event.data;
  return { policy: { agentTools, sessionCreation } };
}

export const sessionPolicyDecider: Decider<SetSessionPolicy, SessionPolicySet, SessionPolicyState> =
  {
    decide,
    evolve,
    initialState: { policy: FOLLOW_GLOBAL },
  };
