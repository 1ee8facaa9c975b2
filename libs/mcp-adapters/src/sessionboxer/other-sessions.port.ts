import type { Approval } from '@sessionboxer/contracts';
/**
 * What the "Other sessions" tools (policy All Sessions) and approval_wait answer, for ONE
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

/** approval_wait's answer: the approval card, as the web UI shows it (the contracts'). */
export type ApprovalView = Approval;
