import {
  conversationEventQueries,
  conversationPartition,
  conversationsProjection,
  type ConversationDoc,
  type SpecConversationEvent,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';

/** The conversations of a sandbox (owner `sandbox`), most recently active first. */
export function sandboxConversations(
  readModels: SqliteReadModelStore,
  sandboxId: string,
): ConversationDoc[] {
  const partition = conversationPartition({ kind: 'sandbox', sandboxId });
  return readModels
    .list(conversationsProjection, { partition })
    .map((d) => d.doc)
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
}

/** Every event of a conversation after a seq, read page by page. */
export function eventsAfter(
  readModels: SqliteReadModelStore,
  conversationId: string,
  afterSeq: number,
): SpecConversationEvent[] {
  const q = conversationEventQueries(readModels);
  const out: SpecConversationEvent[] = [];
  let after = afterSeq;
  for (;;) {
    const page = q.page(conversationId, { afterSeq: after, limit: 500 });
    out.push(...page.events);
    if (page.next_after === null) return out;
    after = page.next_after;
  }
}
