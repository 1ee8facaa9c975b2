import {
  assertNever,
  checkOutcome,
  formatPrId,
  isPrEvent,
  parsePrId,
  PR_EVENT_TYPES,
  prKey,
  REVIEW_ITEM_KINDS,
  type PrEvent,
  type PrRef,
} from '@sessionboxer/domain';
import type { PrItem, PrSummary, PrWithItems, PrWithItemsAnswer } from '@sessionboxer/contracts';
import type { RecordedEvent } from '@sessionboxer/event-store';
import { docId } from './doc-id';
import type { DocumentChange, Projection } from './projection';
import type { ReadModelReader } from './store/read-model-store';

// pr_list's summary and pr_items' item are the wire's shapes (libs/contracts); the old names stay
// for the code that reads them.
export type { PrSummary as PullRequestSummary, PrItem as PullRequestItem };

export interface PullRequestDoc {
  sessionId: string;
  pr: PrSummary;
  /** In the order they were received. */
  items: PrItem[];
}

/** One document per PR of a session, whatever the case it was named in. */
function prDocId(sessionId: string, ref: Pick<PrRef, 'owner' | 'repo' | 'number'>): string {
  return docId(sessionId, prKey(ref));
}

function summarise(pr: PrSummary, items: PrItem[]): PullRequestDoc['pr'] {
  const checks = { passed: 0, failed: 0, pending: 0 };
  for (const item of items) if (item.kind === 'check') checks[checkOutcome(item.conclusion)]++;
  const unaddressed = items.filter((i) => REVIEW_ITEM_KINDS.includes(i.kind) && !i.addressed);
  return { ...pr, checks, unaddressed: unaddressed.length };
}

function withItems(doc: PullRequestDoc, items: PrItem[]): PullRequestDoc {
  return { ...doc, pr: summarise(doc.pr, items), items };
}

function attached(
  event: RecordedEvent & PrEvent & { type: 'PrAttached' },
): DocumentChange<PullRequestDoc>[] {
  const { sessionId, owner, repo, number, url, title, state } = event.data;
  const checks = { passed: 0, failed: 0, pending: 0 };
  const pr = { id: formatPrId(event.data), owner, repo, number, url, title, state, checks };
  const doc = { sessionId, pr: { ...pr, unaddressed: 0 }, items: [] };
  const id = prDocId(sessionId, event.data);
  return [{ id, partition: sessionId, order: event.position, doc }];
}

function changed(
  doc: PullRequestDoc,
  event: Exclude<PrEvent, { type: 'PrAttached' }>,
): PullRequestDoc {
  switch (event.type) {
    case 'PrStateChanged': {
      const { state, title } = event.data;
      return { ...doc, pr: { ...doc.pr, state, title } };
    }
    case 'PrItemReceived':
      return withItems(doc, [...doc.items, { ...event.data.item, addressed: false }]);
    case 'PrCheckChanged': {
      const { itemId, conclusion } = event.data;
      return withItems(
        doc,
        doc.items.map((i) => (i.id === itemId ? { ...i, conclusion } : i)),
      );
    }
    case 'PrItemsAddressed': {
      const ids = new Set(event.data.itemIds);
      return withItems(
        doc,
        doc.items.map((i) => (ids.has(i.id) ? { ...i, addressed: true } : i)),
      );
    }
    default:
      return assertNever(event);
  }
}

function apply(
  event: RecordedEvent,
  get: (id: string) => PullRequestDoc | null,
): DocumentChange<PullRequestDoc>[] {
  if (!isPrEvent(event)) return [];
  if (event.type === 'PrAttached') return attached(event);
  const id = prDocId(event.data.sessionId, event.data);
  const doc = get(id);
  // An event of a PR the read model never saw attached changes nothing (a valid log has none).
  return doc === null ? [] : [{ id, doc: changed(doc, event) }];
}

export const pullRequestsProjection: Projection<PullRequestDoc> = {
  name: 'pull_requests',
  version: 1,
  handles: PR_EVENT_TYPES,
  apply,
};

/** A session's attached PRs. Read-only. */
export interface PullRequestQueries {
  /** In the order they were attached. */
  list(sessionId: string): PrSummary[];
  /** The same, each with its items (the PRs pane shows them with their addressed marks). */
  listWithItems(sessionId: string): PrWithItems[];
  /**
   * By `owner/repo#n`, in any case; null when that PR is not attached to the session. A prId
   * that is not of that form is refused with a ValidationFailed DomainError that says so.
   */
  get(sessionId: string, prId: string): PrWithItemsAnswer | null;
}

export function pullRequestQueries(reader: ReadModelReader): PullRequestQueries {
  return {
    list: (sessionId) =>
      reader.list(pullRequestsProjection, { partition: sessionId }).map((d) => d.doc.pr),
    listWithItems: (sessionId) =>
      reader
        .list(pullRequestsProjection, { partition: sessionId })
        .map((d) => ({ ...d.doc.pr, items: d.doc.items })),
    get(sessionId, prId) {
      const doc = reader.get(pullRequestsProjection, prDocId(sessionId, parsePrId(prId)));
      return doc === null ? null : { pr: doc.pr, items: doc.items };
    },
  };
}
