// What a person sees of the agent's reach to other sessions: approval cards, the limits, and
// the session's sessionboxer policy.
import type {
  AgentToolsPolicy,
  ApprovalKind,
  ApprovalStatus,
  SessionCreationPolicy,
  SessionPolicy,
} from '@sessionboxer/domain';

/**
 * `GET /api/sessions/:id/approvals` (and allow, deny, approval_wait): an approval card.
 * `result` is what the allowed action returned (session_create's answer: `sessionId`, `title`,
 * …), `error` why it failed; each is absent until there is one.
 */
export interface Approval {
  id: string;
  kind: ApprovalKind;
  summary: string;
  status: ApprovalStatus;
  expiresAt: string;
  result?: Record<string, unknown>;
  error?: string;
  /**
   * What a person judges by, on REST and the UI socket (approval_wait answers the spec's fields
   * only): the request in full, the asking session, who answered and the reason they gave.
   */
  request?: ApprovalRequest;
  askingSession?: { id: string; title: string | null };
  answeredBy?: string;
  reason?: string;
}

/** A session_create card's request; what older cards did not record is empty or null. */
export interface ApprovalRequest {
  title: string;
  firstPrompt: string;
  provider: string;
  repos: string[];
  /** The environment the session will have (the Global default when it was asked). */
  environment: string | null;
  /** Whether "Ask me" came from the asking session's own policy or the global one. */
  policySource: PolicySource | null;
}

/** One ledger of agent-created sessions as it stands: its alive sessions and its cap. */
export interface LimitDoc {
  /** `children-<creatorSessionId>` or `agent-sessions-global`. */
  ledger: string;
  alive: { sessionId: string; title: string }[];
  /** The cap in force when a place was last taken (the global one is a setting). */
  cap: number;
  updatedAt: string;
}

/** `GET /api/sessions/:id/limits`: this session's agent's children, and the global cap's use. */
export interface SessionLimits {
  children: LimitDoc;
  global: LimitDoc;
}

/** Where a policy in force comes from: the session's own value, or the global one. */
export type PolicySource = 'session' | 'global';

/** `GET`/`PATCH /api/sessions/:id/policy`: the session's own policy and the one in force. */
export interface PolicyView {
  own: SessionPolicy;
  effective: {
    agentTools: AgentToolsPolicy;
    sessionCreation: SessionCreationPolicy;
    source: { agentTools: PolicySource; sessionCreation: PolicySource };
  };
}
