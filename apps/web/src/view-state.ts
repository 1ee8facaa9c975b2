import type {
  Notification,
  NotificationFrame,
  NotificationPage,
  SessionFrame,
  TranscriptEntry,
} from '@sessionboxer/contracts';
import type { PaneFocus, PaneName, SessionParts } from './view-types';
import { emptyParts, updateView, type SessionState } from './store';

/** Whether the agent's last turn is still running: a prompt with no turn_finished after it. */
export function turnRunning(entries: TranscriptEntry[]): boolean {
  // The last prompt or turn end decides: read from the newest (a long transcript's loads and
  // every appended entry ask again, and the answer is nearly always near the end).
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (e.kind !== 'event') continue;
    if (e.event.type === 'prompt') return true;
    if (e.event.type === 'turn_finished') return false;
  }
  return false;
}

/** What a session's chip says: a running session is `working` on a turn or `idle`. */
export type Activity = 'working' | 'idle' | 'stopped';

export function activityOf(status: 'running' | 'stopped', working: boolean): Activity {
  if (status === 'stopped') return 'stopped';
  return working ? 'working' : 'idle';
}

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

/** A `session` frame, or the REST answers of some of its parts (each the body of its GET). */
export type LoadedParts = Partial<Omit<SessionFrame, 'sessionId'>>;

/** The notifications' REST body is a page; the frame carries the same. */
function notificationsOf(value: NotificationPage | Notification[] | null): Notification[] {
  if (Array.isArray(value)) return value;
  return value?.notifications ?? [];
}

/** Normalises a `session` frame (or a REST answer of one part) into the view's parts. */
export function partsOf(data: LoadedParts): Partial<SessionParts> {
  const parts: Partial<SessionParts> = {};
  const given = data as Record<string, unknown>;
  for (const key of Object.keys(emptyParts) as (keyof SessionParts)[]) {
    if (!(key in data)) continue;
    const value =
      key === 'notifications' ? notificationsOf(data.notifications ?? null) : given[key];
    (parts as Record<string, unknown>)[key] = value;
  }
  return parts;
}

/** A `session` frame: the whole state, newer than anything the first load fetched. */
export function applySessionFrame(sessionId: string, data: SessionFrame): void {
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

/**
 * The agent's `notify`, the moment it is recorded. The frame names only its id and text: the bell
 * shows it as the agent's, now, until the `session` frame right behind it brings the recorded one.
 */
export function addNotification(frame: NotificationFrame): void {
  const { sessionId, notificationId: id, text } = frame;
  const at = new Date().toISOString();
  const notification: Notification = { id, sessionId, text, source: 'agent', at, read: false };
  updateView(sessionId, (v) => {
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
    case 'files':
      return 'files';
    case 'desktop':
      return 'desktop';
    default:
      return null;
  }
}
