import type { InboxItem, InboxItemKind, InboxPage } from '@sessionboxer/contracts';
import {
  isApprovalEvent,
  isInboxEvent,
  isSessionEvent,
  type ConversationEvent,
} from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import type { DocumentChange, Projection } from './projection';
import type { ReadModelReader } from './store/read-model-store';

/**
 * What needs a person across sessions: pending approvals (dropping out once answered or
 * expired), notify's notifications, failed turns; and who read which. Also session titles and
 * which session a conversation belongs to, so an item names its session.
 */
type ItemDoc = Omit<InboxItem, 'sessionTitle' | 'read'> & { expiresAt: string | null };
type InboxDoc =
  | { t: 'item'; item: ItemDoc }
  | { t: 'title'; title: string }
  /** A deleted session: its items are left out (they are keyed by item, not by session). */
  | { t: 'deleted' }
  | { t: 'conversation'; sessionId: string }
  | { t: 'read' };

const ITEMS = 'items';
const item = (kind: InboxItemKind, id: string) => `${kind}:${id}`;

function put(
  id: string,
  partition: string,
  order: number,
  doc: InboxDoc,
): DocumentChange<InboxDoc> {
  return { id, partition, order, doc };
}

function sessionChange(event: RecordedEvent): DocumentChange<InboxDoc>[] {
  if (!isSessionEvent(event)) return [];
  if (event.type === 'SessionCreated' || event.type === 'SessionTitleSet') {
    const { sessionId, title } = event.data;
    return [put(`title:${sessionId}`, 'titles', 0, { t: 'title', title })];
  }
  if (event.type === 'SessionDeleted') {
    return [put(`deleted:${event.data.sessionId}`, 'deleted', 0, { t: 'deleted' })];
  }
  if (event.type !== 'NotificationSent') return [];
  const { sessionId, notificationId, text, at } = event.data;
  const id = item('notification', notificationId);
  const doc = { id, kind: 'notification' as const, sessionId, text, at, expiresAt: null };
  return [put(id, ITEMS, event.position, { t: 'item', item: doc })];
}

function approvalChange(event: RecordedEvent): DocumentChange<InboxDoc>[] {
  if (!isApprovalEvent(event)) return [];
  const id = item('approval', event.data.approvalId);
  if (event.type === 'ApprovalAnswered' || event.type === 'ApprovalExpired') {
    return [{ id, doc: null }];
  }
  if (event.type !== 'ApprovalRequested') return [];
  const { sessionId, summary: text, at, expiresAt } = event.data;
  const doc = { id, kind: 'approval' as const, sessionId, text, at, expiresAt };
  return [put(id, ITEMS, event.position, { t: 'item', item: doc })];
}

function conversationChange(
  event: RecordedEvent,
  get: (id: string) => InboxDoc | null,
): DocumentChange<InboxDoc>[] {
  const e = event as RecordedEvent & ConversationEvent;
  if (e.type === 'ConversationStarted' && e.data.owner.kind === 'session') {
    const doc = { t: 'conversation' as const, sessionId: e.data.owner.sessionId };
    return [put(`conversation:${e.data.conversationId}`, 'conversations', 0, doc)];
  }
  if (e.type !== 'TurnFinished' || e.data.status !== 'failed') return [];
  const owner = get(`conversation:${e.data.conversationId}`);
  if (owner?.t !== 'conversation') return [];
  const id = item('turn', `${e.data.conversationId}-${e.data.turn}`);
  const text = `Turn ${e.data.turn} failed`;
  const doc = { id, kind: 'turn' as const, sessionId: owner.sessionId, text, at: e.data.at };
  return [put(id, ITEMS, event.position, { t: 'item', item: { ...doc, expiresAt: null } })];
}

function apply(event: RecordedEvent, get: (id: string) => InboxDoc | null) {
  if (isInboxEvent(event)) {
    const { userId, itemIds } = event.data;
    return itemIds.map((id) => put(`read:${userId}:${id}`, `read:${userId}`, 0, { t: 'read' }));
  }
  return [...sessionChange(event), ...approvalChange(event), ...conversationChange(event, get)];
}

export const inboxProjection: Projection<InboxDoc> = {
  name: 'inbox',
  // 2: a deleted session's items are left out.
  version: 2,
  handles: [
    'SessionCreated',
    'SessionTitleSet',
    'SessionDeleted',
    'NotificationSent',
    'ApprovalRequested',
    'ApprovalAnswered',
    'ApprovalExpired',
    'ConversationStarted',
    'TurnFinished',
    'InboxItemsRead',
  ],
  apply,
};

export const INBOX_PAGE_MAX = 500;

/** The inbox item an event adds, if any (what a push reaction sends). */
export function inboxItemIdOf(event: RecordedEvent): string | null {
  if (isSessionEvent(event) && event.type === 'NotificationSent') {
    return item('notification', event.data.notificationId);
  }
  if (isApprovalEvent(event) && event.type === 'ApprovalRequested') {
    return item('approval', event.data.approvalId);
  }
  const e = event as RecordedEvent & ConversationEvent;
  if (e.type === 'TurnFinished' && e.data.status === 'failed') {
    return item('turn', `${e.data.conversationId}-${e.data.turn}`);
  }
  return null;
}

export interface InboxQueries {
  /** One item (read state aside), or null when gone. */
  item(itemId: string): Omit<InboxItem, 'read'> | null;
  /** A person's inbox as of `at`, newest first (an approval past its deadline is gone). */
  forUser(userId: string, at: string): InboxPage;
}

export function inboxQueries(reader: ReadModelReader): InboxQueries {
  const deleted = (sessionId: string) =>
    reader.get(inboxProjection, `deleted:${sessionId}`) !== null;
  const titleOf = (sessionId: string) => {
    const doc = reader.get(inboxProjection, `title:${sessionId}`);
    return doc?.t === 'title' ? doc.title : '';
  };
  return {
    item(itemId) {
      const doc = reader.get(inboxProjection, itemId);
      if (doc?.t !== 'item' || deleted(doc.item.sessionId)) return null;
      const { expiresAt: _e, ...rest } = doc.item;
      return { ...rest, sessionTitle: titleOf(rest.sessionId) };
    },
    forUser(userId, at) {
      const docs = reader.list(inboxProjection, { partition: ITEMS, limit: 10_000 });
      const items: InboxItem[] = [];
      for (const { doc } of docs.reverse()) {
        if (doc.t !== 'item') continue;
        const { expiresAt, ...rest } = doc.item;
        if ((expiresAt !== null && at >= expiresAt) || deleted(rest.sessionId)) continue;
        const read = reader.get(inboxProjection, `read:${userId}:${rest.id}`) !== null;
        items.push({ ...rest, sessionTitle: titleOf(rest.sessionId), read });
        if (items.length >= INBOX_PAGE_MAX) break;
      }
      const unread: Record<string, number> = {};
      for (const i of items) if (!i.read) unread[i.sessionId] = (unread[i.sessionId] ?? 0) + 1;
      const unreadCount = items.filter((i) => !i.read).length;
      return { items, unreadCount, unreadBySession: unread };
    },
  };
}
