import type { Notification, NotificationPage } from '@sessionboxer/contracts';
import { isSessionEvent } from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import { docId } from './doc-id';
import type { DocumentChange, Projection } from './projection';
import type { ReadModelReader } from './store/read-model-store';

// A notification as the bell lists it, and a page of them: the wire's (libs/contracts).
export type { Notification as NotificationDoc, NotificationPage };
type NotificationDoc = Notification;

function apply(event: RecordedEvent): DocumentChange<NotificationDoc>[] {
  if (!isSessionEvent(event) || event.type !== 'NotificationSent') return [];
  const { sessionId, notificationId: id, text, source, at } = event.data;
  const doc = { id, sessionId, text, source, at, read: false };
  return [{ id: docId(sessionId, id), partition: sessionId, order: event.position, doc }];
}

export const notificationsProjection: Projection<NotificationDoc> = {
  name: 'notifications',
  version: 1,
  handles: ['NotificationSent'],
  apply,
};

export const NOTIFICATION_PAGE_MAX = 500;

/** A session's notifications. Read-only. */
export interface NotificationQueries {
  /** Oldest first, after `after` (exclusive; a `next` of an earlier page); limit 1–500, 100. */
  page(sessionId: string, options?: { after?: number; limit?: number }): NotificationPage;
}

export function notificationQueries(reader: ReadModelReader): NotificationQueries {
  return {
    page(sessionId, options = {}) {
      const limit = Math.min(Math.max(1, options.limit ?? 100), NOTIFICATION_PAGE_MAX);
      const docs = reader.list(notificationsProjection, {
        partition: sessionId,
        after: options.after,
        limit: limit + 1,
      });
      const page = docs.slice(0, limit);
      const next = docs.length > limit ? page[page.length - 1].order : null;
      return { notifications: page.map((d) => d.doc), next };
    },
  };
}
