import { useEffect, useState } from 'react';
import type { Notification } from '@sessionboxer/contracts';
import { Link } from '../router';
import { useStore } from '../store';
import { markInboxRead, useInbox } from './inbox/inbox-store';

const NONE: Notification[] = [];

/**
 * How many of the shown session's notifications are unread, as the server keeps it (the inbox's
 * read state, so a reload keeps them read); opening the list reads the session's items.
 */
function useUnread(sessionId: string | null, open: boolean): number {
  const inbox = useInbox();
  useEffect(() => {
    if (open && sessionId) void markInboxRead({ sessionId }).catch(() => undefined);
  }, [open, sessionId, inbox.unreadBySession[sessionId ?? '']]);
  return inbox.items.filter(
    (i) => i.sessionId === sessionId && !i.read && i.kind === 'notification',
  ).length;
}

/** Escape closes the open list. */
function useEscapeCloses(open: boolean, close: () => void): void {
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && close();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);
}

function sourceText(source: string): string {
  if (source === 'agent') return 'From the agent';
  return source === 'pr' ? 'A PR' : 'Sessionboxer';
}

/** The open list, newest first. */
function NotificationList({ notifications }: { notifications: Notification[] }) {
  return (
    <div className="bell-panel" id="notifications">
      {notifications.length === 0 && <p className="muted">No notifications.</p>}
      <ul aria-label="Notifications">
        {[...notifications].reverse().map((n) => (
          <li key={n.id} className={`notification notification-${n.source}`}>
            <p>{n.text}</p>
            <p className="muted">
              {sourceText(n.source)} ·{' '}
              <time dateTime={n.at}>{new Date(n.at).toLocaleString()}</time>
            </p>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The inbox across sessions, with what is unread in it. */
function InboxLink() {
  const { unreadCount } = useInbox();
  return (
    <Link to="/inbox" className="inbox-link">
      Inbox
      {unreadCount > 0 && (
        <>
          {' '}
          <span className="count unread">{unreadCount}</span>
        </>
      )}
    </Link>
  );
}

/** The bell of the shown session: the unread count, and the list of its notifications. */
export function Bell() {
  const notifications = useStore((s) => s.view?.parts.notifications ?? NONE);
  const sessionId = useStore((s) => s.view?.sessionId ?? null);
  const [open, setOpen] = useState(false);
  const unread = useUnread(sessionId, open);
  useEscapeCloses(open, () => setOpen(false));
  return (
    <div className="bell">
      <InboxLink />{' '}
      <button
        type="button"
        aria-expanded={open}
        aria-controls={open ? 'notifications' : undefined}
        onClick={() => setOpen((o) => !o)}
      >
        <span className="bell-icon" aria-hidden="true" />
        Notifications
        {unread > 0 && (
          <>
            {' '}
            <span className="count unread">{unread}</span>
          </>
        )}
      </button>
      {open && <NotificationList notifications={notifications} />}
    </div>
  );
}
