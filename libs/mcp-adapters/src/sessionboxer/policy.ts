import type { AgentTools } from './port';

/**
 * What each sessionboxer tool needs of the policy (agentTools: off | session | all):
 * - `self`: knowing about itself (whoami, docs, settings_get) works whatever the policy;
 * - `session`: acting on its own session needs This Session only (`session`) or All Sessions;
 * - `all`: acting on other sessions needs All Sessions.
 * Tools not listed act on the caller's own session. Unknown names are the registry's business.
 */
export type ToolScope = 'self' | 'session' | 'all';

const SELF: readonly string[] = ['whoami', 'docs', 'settings_get'];
const OTHER_SESSIONS: readonly string[] = [
  'sessions_list',
  'session_get',
  'session_create',
  'session_message',
  'session_wait',
  'session_stop',
  'approval_wait',
];

export function toolScope(tool: string): ToolScope {
  if (SELF.includes(tool)) return 'self';
  return OTHER_SESSIONS.includes(tool) ? 'all' : 'session';
}

/** The policy a call runs under, and where it was set (for the refusal's words). */
export interface PolicyInForce {
  agentTools: AgentTools;
  /** `session`: the session's own setting; `global`: the default in Global settings. */
  source: 'session' | 'global';
}

const LABELS: Record<AgentTools, string> = {
  off: 'Off',
  session: 'This Session only',
  all: 'All Sessions',
};

const WHERE = {
  session: "this session's settings (Advanced… → MCP & connectors → sessionboxer)",
  global: 'Global settings → MCP & connectors → sessionboxer',
};

/**
 * Why the policy forbids this tool, naming the setting; null when it allows it. `scope` is
 * for a tool whose need depends on its arguments (schedule_create prompting another session).
 */
export function policyRefusal(
  tool: string,
  policy: PolicyInForce,
  scope: ToolScope = toolScope(tool),
): string | null {
  const allowed =
    scope === 'self' ||
    (scope === 'session' && policy.agentTools !== 'off') ||
    (scope === 'all' && policy.agentTools === 'all');
  if (allowed) return null;
  const needs = scope === 'all' ? 'All Sessions' : 'This Session only or All Sessions';
  return `${tool} is not allowed: the sessionboxer policy is ${LABELS[policy.agentTools]} (agentTools: ${policy.agentTools}, set in ${WHERE[policy.source]}); it needs ${needs}. Ask the person to change it; the change applies from your next turn.`;
}
