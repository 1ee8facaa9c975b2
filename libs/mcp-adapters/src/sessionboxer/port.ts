import type {
  PrItem,
  PrSummary,
  SnapshotResult,
  TerminalSummary,
  VerificationSummary,
} from '@sessionboxer/contracts';
import type {
  Actor,
  AgentToolsPolicy,
  SessionEnvironment,
  SessionPane,
} from '@sessionboxer/domain';
import type { E2eCaseStatus, E2eRunStatus } from '../e2e/port';

/**
 * What the `sessionboxer` tools answer, in the shapes of
 * shared/spec/sessionboxer-desktop-and-sessionboxer-mcp.txt. The control plane's handlers
 * (registered per feature, see kit/handlers.ts) produce them.
 */

/** The sessionboxer policy's agent tools (the domain's). */
export type AgentTools = AgentToolsPolicy;

// The answers the web UI shows too are defined once, in the contracts.
export type { PrItem, PrSummary, SnapshotResult, TerminalSummary };

export interface WhoAmI {
  id: string;
  title: string;
  url: string;
  provider: string;
  model: string;
  environment: SessionEnvironment;
  guest: { os: 'windows' | 'macos'; workspace: string } | null;
  createdAt: string;
  forkedFrom: { sessionId: string; title: string; snapshotId: string } | null;
  createdBy: { sessionId: string; title: string } | null;
  branch: string | null;
  snapshotCount: number;
  sessionboxerVersion: string;
  agentTools: AgentTools;
  status: string;
  usage: Record<string, unknown> | null;
  context: Record<string, unknown> | null;
  queueLength: number;
  panes: string[];
  terminals: TerminalSummary[];
  prs: PrSummary[];
  verification: VerificationSummary | null;
  repos: { name: string; path: string }[];
}

/** The panes ui_open can ask for: the domain's list (RequestPane validates the same). */
export type UiPane = SessionPane;

export interface UiOpenResult {
  pane: UiPane;
  terminalId: string | null;
  /** Whether a browser of the person had this session open (and was not typing) to show it. */
  shown: boolean;
}

/** A prompt waiting for the agent's next turn. */
export interface QueuedPromptSummary {
  id: string;
  text: string;
  /** 1: sent next. */
  position: number;
  queuedAt: string;
  /** Who queued it: a person, this session's agent, or (later) another session's agent. */
  from: Actor;
}

/** What `verify` answers: the run just opened, its cases if they were given. */
export interface VerifyResult {
  id: string;
  status: E2eRunStatus;
  cases: { index: number; title: string; status: E2eCaseStatus }[];
}
