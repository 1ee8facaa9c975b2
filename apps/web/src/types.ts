// The shapes the control plane answers with, as the UI reads them (libs/projections and the
// REST controllers are their source; only the fields the UI uses are spelled out): sessions,
// their transcript, queue, approvals and policy. The panes' shapes are in pane-types.ts.
import type {
  Notification,
  PullRequest,
  Recording,
  Snapshot,
  Terminal,
  VerificationRun,
} from './pane-types';

export type Actor =
  | { kind: 'person'; id: string }
  | { kind: 'agent'; sessionId: string }
  | { kind: 'api-key'; keyId: string; orgId: string }
  | { kind: 'system'; id: string };

export type SessionEnvironment = 'docker-linux' | 'qemu-windows' | 'qemu-macos';

/** GET /api/sidebar: sessions with their children nested. */
export interface SidebarNode {
  id: string;
  title: string;
  status: 'running' | 'stopped';
  provider: string;
  model: string;
  environment: SessionEnvironment;
  createdAt: string;
  createdBy: { sessionId: string } | null;
  parentId: string | null;
  childOf: { sessionId: string; title: string } | null;
  children: SidebarNode[];
}

/** GET /api/sessions/:id */
export interface SessionView {
  id: string;
  title: string;
  status: 'running' | 'stopped';
  provider: string;
  model: string;
  environment: SessionEnvironment;
  createdAt: string;
  childOf: { sessionId: string; title: string } | null;
  box: { status: string; failure: string | null } | null;
}

export type MarkerLink =
  | { sessionId: string }
  | { url: string }
  | { snapshotId: string }
  | { terminalId: string }
  | { recording: string }
  | { verificationRunId: string }
  | { approvalId: string }
  | { scheduleId: string };

export interface TranscriptMarker {
  id: string;
  sessionId: string;
  position: number;
  at: string;
  actor: Actor;
  kind: string;
  text: string;
  link: MarkerLink | null;
}

interface EventBase {
  seq: number;
  at: string;
  turn: number;
}

export type ConversationEvent = EventBase &
  (
    | {
        type: 'prompt';
        text: string;
        model: string;
        promptId: string;
        from: Actor;
        briefing: string | null;
      }
    | { type: 'message'; text: string }
    | { type: 'tool_call'; id: string; name: string; input: unknown }
    | { type: 'tool_result'; id: string; output: string; error: boolean }
    | {
        type: 'turn_finished';
        status: 'finished' | 'interrupted' | 'failed';
        input_tokens: number;
        output_tokens: number;
      }
    | { type: 'error'; code: string; message: string }
  );

export type TranscriptEntry =
  | { kind: 'marker'; position: number; at: string; marker: TranscriptMarker }
  | {
      kind: 'event';
      position: number;
      at: string;
      conversationId: string;
      event: ConversationEvent;
    };

export interface TranscriptPage {
  entries: TranscriptEntry[];
  next: number | null;
}

export interface QueuedPrompt {
  id: string;
  text: string;
  position: number;
  from: Actor;
  queuedAt: string;
}

export interface Approval {
  id: string;
  kind: string;
  summary: string;
  status: 'pending' | 'allowed' | 'denied' | 'expired';
  expiresAt: string;
  /** What session_create asked for, when the server includes it. */
  payload?: { title?: string };
  result?: { sessionId?: string; title?: string };
  error?: string;
}

export type AgentTools = 'off' | 'session' | 'all';
export type SessionCreation = 'ask' | 'dont_ask';

/** GET /api/sessions/:id/policy */
export interface PolicyView {
  own: { agentTools: AgentTools | null; sessionCreation: SessionCreation | null };
  effective: { agentTools: AgentTools; sessionCreation: SessionCreation };
}

export interface LimitDoc {
  alive: { sessionId: string; title: string }[];
  cap: number;
}

/** The `session` frame: each field the body of the session's REST GET of that name. */
export interface SessionParts {
  session: SessionView | null;
  queue: QueuedPrompt[];
  approvals: Approval[];
  prs: PullRequest[];
  verifications: VerificationRun[];
  recordings: Recording[];
  notifications: Notification[];
  snapshots: Snapshot[];
  terminals: Terminal[];
  policy: PolicyView | null;
  limits: { children: LimitDoc; global: LimitDoc } | null;
}
