import type { Command } from '../kernel';

/** A pull request attached to one session. Owner and repo are GitHub names. */
export interface PrRef {
  sessionId: string;
  owner: string;
  repo: string;
  number: number;
}

export type PrState = 'open' | 'closed' | 'merged';

export const PR_STATES: readonly PrState[] = ['open', 'closed', 'merged'];

export type PrItemKind = 'review_comment' | 'review' | 'check';

export const PR_ITEM_KINDS: readonly PrItemKind[] = ['review_comment', 'review', 'check'];

/** Review comments and reviews are what the agent marks addressed; checks pass or fail. */
export const REVIEW_ITEM_KINDS: readonly PrItemKind[] = ['review_comment', 'review'];

/** An item as the PR watcher reads it from GitHub (the `PrItem` of the port, less `addressed`). */
export interface PrItemInput {
  /** GitHub's id, unique within the PR. */
  id: string;
  kind: PrItemKind;
  author: string | null;
  /** Cut at 4,000 characters (ending with `…`) when longer. */
  body: string;
  path: string | null;
  line: number | null;
  /** For checks: success, failure, pending, …; null for the other kinds. */
  conclusion: string | null;
  url: string | null;
  createdAt: string;
}

/** `pr_attach`: a no-op for a PR already attached to the session. */
export type AttachPr = Command<'AttachPr', PrRef & { url: string; title: string; state: PrState }>;

export type RecordPrState = Command<'RecordPrState', PrRef & { state: PrState; title: string }>;

/** What the watcher saw: new items are recorded, and checks whose conclusion changed. */
export type RecordPrItems = Command<'RecordPrItems', PrRef & { items: PrItemInput[] }>;

export type MarkPrItemsAddressed = Command<'MarkPrItemsAddressed', PrRef & { itemIds: string[] }>;

export type PrCommand = AttachPr | RecordPrState | RecordPrItems | MarkPrItemsAddressed;
