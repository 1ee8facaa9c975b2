import type { Actor, PrItemInput, SessionPane } from '@sessionboxer/domain';
import type { E2eCaseStatus, E2eRunStatus } from '../e2e/port';

/**
 * What the `sessionboxer` tools answer, in the shapes of
 * shared/spec/sessionboxer-desktop-and-sessionboxer-mcp.txt. The control plane's handlers
 * (registered per feature, see kit/handlers.ts) produce them.
 */

export type AgentTools = 'off' | 'session' | 'all';

export interface TerminalSummary {
  id: string;
  createdAt: string;
  /** null while the shell still runs. */
  exitCode: number | null;
}

export interface PrSummary {
  /** `owner/repo#number`: what pr_items and pr_mark_addressed take. */
  id: string;
  owner: string;
  repo: string;
  number: number;
  url: string;
  title: string;
  state: 'open' | 'closed' | 'merged';
  checks: { passed: number; failed: number; pending: number };
  /** Review items not yet marked addressed. */
  unaddressed: number;
}

/** A review comment, review or check of a PR (the domain's item), and whether it was addressed. */
export type PrItem = PrItemInput & { addressed: boolean };

export interface WhoAmI {
  id: string;
  title: string;
  url: string;
  provider: string;
  model: string;
  environment: 'docker-linux' | 'qemu-windows' | 'qemu-macos';
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
  verification: { id: string; status: string; brief: string } | null;
  repos: { name: string; path: string }[];
}

export interface SnapshotResult {
  id: string;
  ordinal: number;
  sizeBytes: number;
  createdAt: string;
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
