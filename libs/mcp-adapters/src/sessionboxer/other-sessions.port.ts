/**
 * What the "Other sessions" tools (policy All Sessions) and approval_wait can do, for ONE
 * calling session. Session arguments are ids from sessions_list, or a prefix of 6+ characters
 * naming one session only.
 */
export interface SessionListing {
  id: string;
  title: string;
  url: string;
  status: string;
  provider: string;
  environment: string;
  repos: string[];
  createdAt: string;
  /** The session whose agent created this one, with its title ("child of …"). */
  createdBy: { sessionId: string; title: string } | null;
  forkedFrom: { sessionId: string; title: string; snapshotId: string } | null;
  queueLength: number;
  self: boolean;
  mine: boolean;
}

export type CreateSessionAnswer =
  | { pending: false; sessionId: string; title: string; url: string }
  | { pending: true; id: string; summary: string; expiresAt: string; hint: string };

export interface ApprovalView {
  id: string;
  kind: string;
  summary: string;
  status: string;
  expiresAt: string;
  result?: Record<string, unknown>;
  error?: string;
}

export interface OtherSessionsPort {
  listSessions(): Promise<SessionListing[]>;
  getSession(session: string): Promise<SessionListing & { lastReply: string | null }>;
  createSession(args: {
    first_prompt: string;
    title?: string;
    provider?: string;
  }): Promise<CreateSessionAnswer>;
  messageSession(
    session: string,
    text: string,
    when: 'now' | 'queue',
  ): Promise<{ sessionId: string; title: string; delivery: string }>;
  waitSession(
    session: string,
    seconds: number,
  ): Promise<{
    sessionId: string;
    title: string;
    still_running: boolean;
    status: string;
    lastReply: string | null;
  }>;
  stopSession(session: string): Promise<{ sessionId: string; title: string; status: string }>;
  waitApproval(id: string, seconds: number): Promise<ApprovalView>;
  forkSession(): Promise<{
    pending: false;
    sessionId: string;
    title: string;
    url: string;
    snapshotOrdinal: number;
  }>;
}
