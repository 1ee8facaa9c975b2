import { useEffect, useState } from 'react';
import { useStore } from '../store';
import type { Notification } from '../types';

const NONE: Notification[] = [];
/** Notifications this page has shown in the open list (the server keeps none read yet). */
const seen = new Set<string>();

/** The bell of the shown session: the unread count, and the list of its notifications. */
export function Bell() {
  const notifications = useStore((s) => s.view?.parts.notifications ?? NONE);
  const [open, setOpen] = useState(false);
  const [, setSeenCount] = useState(0);
  const unread = notifications.filter((n) => !n.read && !seen.has(n.id)).length;

  useEffect(() => {
    if (!open) return;
    for (const n of notifications) seen.add(n.id);
    setSeenCount(seen.size);
  }, [open, notifications]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

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
      {open && (
        <div className="bell-panel" id="notifications">
          {notifications.length === 0 && <p className="muted">No notifications.</p>}
          <ul aria-label="Notifications">
            {[...notifications].reverse().map((n) => (
              <li key={n.id} className={`notification notification-${n.source}`}>
                <p>{n.text}</p>
                <p className="muted">
                  {n.source === 'agent'
                    ? 'From the agent'
                    : n.source === 'pr'
                      ? 'A PR'
                      : 'Sessionboxer'}{' '}
                  · <time dateTime={n.at}>{new Date(n.at).toLocaleString()}</time>
                </p>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
