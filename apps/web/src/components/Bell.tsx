import { useEffect, useState } from 'react';
import type { Notification } from '@sessionboxer/contracts';
import { useStore } from '../store';

const NONE: Notification[] = [];
/** Notifications this page has shown in the open list (the server keeps none read yet). */
const seen = new Set<string>();

/** How many notifications are unread; opening the list counts all of them as seen. */
function useUnread(notifications: Notification[], open: boolean): number {
  const [, setSeenCount] = useState(0);
  useEffect(() => {
    if (!open) return;
    for (const n of notifications) seen.add(n.id);
    setSeenCount(seen.size);
  }, [open, notifications]);
  return notifications.filter((n) => !n.read && !seen.has(n.id)).length;
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

/** The bell of the shown session: the unread count, and the list of its notifications. */
export function Bell() {
  const notifications = useStore((s) => s.view?.parts.notifications ?? NONE);
  const [open, setOpen] = useState(false);
  const unread = useUnread(notifications, open);
  useEscapeCloses(open, () => setOpen(false));
  return (
    <div className="bell">
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
