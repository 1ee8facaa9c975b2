import type { InboxItem } from '@sessionboxer/contracts';
import { useState } from 'react';
import { navigate, sessionPath } from '../../router';
import { markInboxRead, useInbox } from './inbox-store';
import { PushEnrol } from './PushEnrol';
import '../../styles/inbox.css';

const KIND: Record<InboxItem['kind'], string> = {
  approval: 'Approval waiting',
  notification: 'Notification',
  turn: 'Failed turn',
};

function open(item: InboxItem): void {
  void markInboxRead({ itemIds: [item.id] }).catch(() => undefined);
  navigate(sessionPath(item.sessionId));
}

/** Asks for browser notifications on a click (never on load). */
function NotificationPermission() {
  const supported = typeof Notification !== 'undefined';
  const [permission, setPermission] = useState(supported ? Notification.permission : 'denied');
  if (!supported || permission === 'granted') return null;
  if (permission === 'denied') {
    return <p className="muted">Browser notifications are blocked for this site.</p>;
  }
  return (
    <button type="button" onClick={() => void Notification.requestPermission().then(setPermission)}>
      Show browser notifications
    </button>
  );
}

/** Everything that needs you across sessions, newest first; opening one reads it. */
export function InboxPage() {
  const { items, unreadCount } = useInbox();
  return (
    <section className="inbox" aria-labelledby="inbox-title">
      <h1 id="inbox-title">Inbox</h1>
      <div className="inbox-actions">
        <p>{unreadCount === 1 ? '1 unread' : `${unreadCount} unread`}</p>
        <button
          type="button"
          disabled={unreadCount === 0}
          onClick={() => void markInboxRead({ all: true }).catch(() => undefined)}
        >
          Mark all read
        </button>
        <NotificationPermission />
        <PushEnrol />
      </div>
      {items.length === 0 && <p className="muted">Nothing needs you.</p>}
      <ul aria-label="Inbox items" className="inbox-items">
        {items.map((item) => (
          <li key={item.id} className={item.read ? 'inbox-item' : 'inbox-item unread'}>
            <button type="button" className="inbox-open" onClick={() => open(item)}>
              <span className="inbox-kind">
                {KIND[item.kind]}
                {!item.read && <span className="inbox-unread"> · unread</span>}
              </span>
              <span className="inbox-text">{item.text}</span>
              <span className="muted">
                {item.sessionTitle || item.sessionId} ·{' '}
                <time dateTime={item.at}>{new Date(item.at).toLocaleString()}</time>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
