import { useEffect, useSyncExternalStore } from 'react';
import type { InboxItem, InboxPage, InboxReadRequest } from '@sessionboxer/contracts';
import { api } from '../../api';

/** The signed-in person's inbox as the control plane holds it (read state included). */
const EMPTY: InboxPage = { items: [], unreadCount: 0, unreadBySession: {} };
let page: InboxPage = EMPTY;
let loaded = false;
const listeners = new Set<() => void>();

function set(next: InboxPage): void {
  const before = new Set(page.items.map((i) => i.id));
  const fresh = loaded ? next.items.filter((i) => !i.read && !before.has(i.id)) : [];
  page = next;
  loaded = true;
  for (const l of listeners) l();
  for (const item of fresh) notifyBrowser(item);
}

/** A browser notification for an item that arrived while this tab is open, if permitted. */
function notifyBrowser(item: InboxItem): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  const title = item.sessionTitle || 'Sessionboxer';
  try {
    new Notification(title, { body: item.text, tag: item.id });
  } catch {
    // a browser that shows notifications only from a service worker
  }
}

export async function refreshInbox(): Promise<void> {
  try {
    set(await api<InboxPage>('GET', '/api/inbox'));
  } catch {
    // offline or signed out: the socket's next inbox frame brings it
  }
}

/** The UI socket's `inbox` frame: at connection, and whenever this person's inbox changed. */
export function applyInboxFrame(next: InboxPage): void {
  set(next);
}

/** Marks items read on the server (some, a session's, or all); the answer is the new inbox. */
export async function markInboxRead(request: InboxReadRequest): Promise<void> {
  if ('itemIds' in request && request.itemIds.length === 0) return;
  set(await api<InboxPage>('POST', '/api/inbox/read', request));
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The inbox as it is now (for a handler, outside React's render). */
export function getInbox(): InboxPage {
  return page;
}

export function useInbox(): InboxPage {
  return useSyncExternalStore(subscribe, () => page);
}

/**
 * Loads the inbox once (the socket's `inbox` frames keep it fresh after), and keeps the tab
 * title counting what is unread.
 */
export function useInboxSync(): void {
  useEffect(() => {
    void refreshInbox();
  }, []);
  const { unreadCount } = useInbox();
  useEffect(() => {
    document.title = unreadCount > 0 ? `(${unreadCount}) Sessionboxer` : 'Sessionboxer';
  }, [unreadCount]);
}

/** Opening a session reads its items. */
export function useSessionOpenedReads(sessionId: string | null): void {
  useEffect(() => {
    if (sessionId) void markInboxRead({ sessionId }).catch(() => undefined);
  }, [sessionId]);
}
