import type { Notification, PaneFocus, PaneName } from './pane-types';
import { emptyParts, updateView, type SessionState } from './store';
import type { SessionParts, TranscriptEntry } from './types';

/** A fresh view of a session, before anything is loaded. */
export function newView(sessionId: string): SessionState {
  return {
    sessionId,
    loading: true,
    error: null,
    entries: [],
    after: undefined,
    parts: emptyParts,
    framed: false,
    pane: 'prs',
    focus: null,
  };
}

/**
 * Appends entries after the last position the view has: a page that overlaps (a reconnect,
 * a REST page and a frame racing) adds nothing twice, and order is by position.
 */
export function appendEntries(sessionId: string, entries: TranscriptEntry[]): void {
  updateView(sessionId, (v) => {
    const fresh = entries.filter((e) => v.after === undefined || e.position > v.after);
    if (fresh.length === 0) return {};
    fresh.sort((a, b) => a.position - b.position);
    return { entries: [...v.entries, ...fresh], after: fresh[fresh.length - 1].position };
  });
}

/** The notifications' REST body is a page; the frame carries the same. */
function notificationsOf(value: unknown): Notification[] {
  if (Array.isArray(value)) return value as Notification[];
  const page = value as { notifications?: Notification[] } | null;
  return page?.notifications ?? [];
}

/** Normalises a `session` frame (or a REST answer of one part) into the view's parts. */
export function partsOf(data: Record<string, unknown>): Partial<SessionParts> {
  const parts: Partial<SessionParts> = {};
  for (const key of Object.keys(emptyParts) as (keyof SessionParts)[]) {
    if (!(key in data)) continue;
    const value = key === 'notifications' ? notificationsOf(data[key]) : data[key];
    (parts as Record<string, unknown>)[key] = value;
  }
  return parts;
}

/** A `session` frame: the whole state, newer than anything the first load fetched. */
export function applySessionFrame(sessionId: string, data: Record<string, unknown>): void {
  updateView(sessionId, (v) => ({
    parts: { ...v.parts, ...partsOf(data) },
    framed: true,
    loading: false,
    error: null,
  }));
}

/** A REST answer of the first load: ignored once a frame has brought something newer. */
export function applyLoadedPart(sessionId: string, data: Partial<SessionParts>): void {
  updateView(sessionId, (v) => (v.framed ? {} : { parts: { ...v.parts, ...data } }));
}

/** The answer of an action (stop, edit the queue, allow…): the newest state of that part. */
export function applyActionResult(sessionId: string, data: Partial<SessionParts>): void {
  updateView(sessionId, (v) => ({ parts: { ...v.parts, ...data } }));
}

export function addNotification(notification: Notification): void {
  updateView(notification.sessionId, (v) => {
    const list = v.parts.notifications;
    if (list.some((n) => n.id === notification.id)) return {};
    return { parts: { ...v.parts, notifications: [...list, notification] } };
  });
}

/** Shows a pane and what it should bring into view. */
export function openPane(sessionId: string, pane: PaneName, focus: PaneFocus = {}): void {
  updateView(sessionId, (v) => ({ pane, focus: { ...focus, n: (v.focus?.n ?? 0) + 1 } }));
}

/** The panes an agent's ui_open names, as the session view's tabs. */
export function paneOfRequest(pane: string): PaneName | null {
  switch (pane) {
    case 'prs':
      return 'prs';
    case 'autoqa':
      return 'autoqa';
    case 'terminal':
      return 'terminals';
    case 'snapshots':
      return 'snapshots';
    case 'desktop':
      return 'recordings';
    default:
      return null;
  }
}
