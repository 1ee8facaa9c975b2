/**
 * Policy replay: what a candidate policy would have refused of a recorded history, and why.
 * It asks the live system's own decisions, never a copy: `policyRefusal` and `toolScope` (the
 * gateway's check of every sessionboxer tool call), the `sessionCreation` rule of
 * `session_create` (ask ⇒ a person is asked), and `allowedBy` (the egress guard's allow list,
 * with the guard's own refusal text and its order: an address literal is judged by the
 * address rules before the list, a name by the list first).
 *
 * It reads what was recorded: each sessionboxer tool call (AgentToolCalled, `mcp__sessionboxer__…`)
 * of each session's conversations, and each connection the egress proxy decided
 * (EgressAllowed / EgressRefused). Address rules are not policy: a connection they refused
 * stays refused when the candidate list names it, with the reason recorded then.
 */
import {
  AGENT_TOOLS_POLICIES,
  allowedBy,
  DomainError,
  ErrorCode,
  SESSION_CREATION_POLICIES,
  validAllowList,
  type AgentToolsPolicy,
  type SessionCreationPolicy,
} from '@sessionboxer/domain';
import { isPlainObject, onlyKeys, oneOf } from '@sessionboxer/domain/kernel/validation';
import type { RecordedEvent } from '@sessionboxer/event-store';
import { policyRefusal, toolScope } from '@sessionboxer/mcp-adapters';
import { classifyAddress, notAllowed } from '../egress';

/** What to replay; a field left out is not judged. */
export interface CandidatePolicy {
  agentTools?: AgentToolsPolicy;
  sessionCreation?: SessionCreationPolicy;
  /** The egress allow list (host:port, *.suffix:port). */
  egressAllow?: string[];
}

export interface ReplayFinding {
  position: number;
  recordedAt: string;
  sessionId: string;
  kind: 'tool_call' | 'connection';
  /** The tool, or host:port. */
  target: string;
  /** `refused`; `ask`: allowed only once a person says yes (sessionCreation: ask). */
  outcome: 'refused' | 'ask';
  reason: string;
  /** Whether the recorded call or connection was refused then too. */
  refusedThen: boolean;
}

export interface ReplayReport {
  policy: CandidatePolicy;
  sessionId: string | null;
  examined: { toolCalls: number; connections: number };
  findings: ReplayFinding[];
}

const SESSIONBOXER_TOOL = /^mcp__sessionboxer__(.+)$/;

/** The candidate as given (a file, a request body), checked with the settings' own lists. */
export function candidatePolicy(value: unknown): CandidatePolicy {
  if (!isPlainObject(value)) {
    throw new DomainError(ErrorCode.ValidationFailed, 'policy must be an object', {
      field: 'policy',
    });
  }
  onlyKeys(value, 'policy', ['agentTools', 'sessionCreation', 'egressAllow']);
  const policy: CandidatePolicy = {};
  if (value.agentTools !== undefined) {
    policy.agentTools = oneOf(value.agentTools, 'policy.agentTools', AGENT_TOOLS_POLICIES);
  }
  if (value.sessionCreation !== undefined) {
    policy.sessionCreation = oneOf(
      value.sessionCreation,
      'policy.sessionCreation',
      SESSION_CREATION_POLICIES,
    );
  }
  if (value.egressAllow !== undefined) {
    policy.egressAllow = validAllowList(value.egressAllow, 'policy.egressAllow');
  }
  if (Object.keys(policy).length === 0) {
    throw new DomainError(
      ErrorCode.ValidationFailed,
      'policy needs at least one of agentTools, sessionCreation, egressAllow',
      { field: 'policy' },
    );
  }
  return policy;
}

/** Feed the history in position order (all of it: conversations are tied to sessions on the way). */
export class PolicyReplay {
  private readonly owners = new Map<string, string>();
  /** Findings about calls whose result has not come yet, by conversation and call id. */
  private readonly awaiting = new Map<string, ReplayFinding>();
  private readonly report: ReplayReport;

  constructor(
    private readonly policy: CandidatePolicy,
    private readonly sessionId: string | null = null,
  ) {
    this.report = { policy, sessionId, examined: { toolCalls: 0, connections: 0 }, findings: [] };
  }

  add(e: RecordedEvent): void {
    const d = e.data as Record<string, unknown>;
    if (e.type === 'ConversationStarted') {
      const owner = d.owner as { kind?: string; sessionId?: string } | undefined;
      if (owner?.kind === 'session' && typeof owner.sessionId === 'string') {
        this.owners.set(d.conversationId as string, owner.sessionId);
      }
    } else if (e.type === 'AgentToolCalled') {
      const sessionId = this.owners.get(d.conversationId as string);
      const tool = SESSIONBOXER_TOOL.exec(String(d.name))?.[1];
      if (sessionId !== undefined && tool !== undefined && this.wanted(sessionId)) {
        this.report.examined.toolCalls++;
        this.toolCall(e, sessionId, tool);
      }
    } else if (e.type === 'AgentToolReturned') {
      const key = `${String(d.conversationId)}/${String(d.id)}`;
      const finding = this.awaiting.get(key);
      this.awaiting.delete(key);
      // Refused then by the policy: the gateway's refusal is what the agent was answered.
      if (finding && d.error === true && String(d.output).includes('is not allowed')) {
        finding.refusedThen = true;
      }
    } else if (e.type === 'EgressAllowed' || e.type === 'EgressRefused') {
      const sessionId = d.sessionId as string;
      if (this.wanted(sessionId)) {
        this.report.examined.connections++;
        this.connection(e, sessionId);
      }
    }
  }

  result(): ReplayReport {
    return this.report;
  }

  private wanted(sessionId: string): boolean {
    return this.sessionId === null || this.sessionId === sessionId;
  }

  private toolCall(e: RecordedEvent, sessionId: string, tool: string): void {
    const { agentTools, sessionCreation } = this.policy;
    const finding = {
      position: e.position,
      recordedAt: e.recordedAt,
      sessionId,
      kind: 'tool_call',
      target: tool,
      refusedThen: false,
    } as const;
    if (agentTools !== undefined && toolScope(tool) !== 'self') {
      const refusal = policyRefusal(tool, { agentTools, source: 'global' });
      if (refusal !== null) {
        this.push({ ...finding, outcome: 'refused', reason: refusal }, e);
        return;
      }
    }
    if (tool === 'session_create' && sessionCreation === 'ask') {
      const reason = 'sessionCreation is ask: a person would have been asked to allow it';
      this.push({ ...finding, outcome: 'ask', reason }, e);
    }
  }

  private connection(e: RecordedEvent, sessionId: string): void {
    const allow = this.policy.egressAllow;
    if (allow === undefined) return;
    const d = e.data as { host: string; port: number; code?: string; reason?: string };
    const refusedThen = e.type === 'EgressRefused';
    const byAddress = refusedThen && d.code !== 'not_allowed';
    const target = `${d.host}:${d.port}`;
    const finding = {
      position: e.position,
      recordedAt: e.recordedAt,
      sessionId,
      kind: 'connection',
      target,
      outcome: 'refused',
      refusedThen,
    } as const;
    const literal = classifyAddress(d.host);
    // The guard's order: a literal's address rules first, a name's allow list first.
    if (byAddress && literal) return this.push({ ...finding, reason: d.reason ?? '' }, e);
    const entry = allowedBy(allow, literal?.address ?? d.host, d.port);
    if (entry === null) {
      const verdict = notAllowed(target);
      return this.push({ ...finding, reason: verdict.allowed ? '' : verdict.reason }, e);
    }
    if (byAddress) this.push({ ...finding, reason: d.reason ?? '' }, e);
  }

  private push(f: ReplayFinding, e: RecordedEvent): void {
    this.report.findings.push(f);
    if (f.kind !== 'tool_call') return;
    const d = e.data as { conversationId?: unknown; id?: unknown };
    this.awaiting.set(`${String(d.conversationId)}/${String(d.id)}`, f);
  }
}

/** Replays `policy` over the whole history of `store` (or one session's part of it). */
export async function replayPolicy(
  store: { readAll(options: { fromPosition: number; maxCount: number }): Promise<RecordedEvent[]> },
  policy: CandidatePolicy,
  sessionId: string | null,
): Promise<ReplayReport> {
  const replay = new PolicyReplay(policy, sessionId);
  for (let from = 0; ;) {
    const page = await store.readAll({ fromPosition: from, maxCount: 5_000 });
    for (const e of page) replay.add(e);
    if (page.length < 5_000) return replay.result();
    from = page[page.length - 1].position + 1;
  }
}
