import { signOut } from '../auth';
import { Link } from '../router';
import { useStore } from '../store';
import { Bell } from './Bell';

/** The banner: the app's name, the bell of the shown session, Settings and signing out. */
export function AppHeader() {
  const username = useStore((s) => s.username);
  const connected = useStore((s) => s.connected);
  const hasSession = useStore((s) => s.view !== null);
  return (
    <header className="banner">
      <Link to="/" className="brand">
        Sessionboxer
      </Link>
      <span className={connected ? 'live on' : 'live off'} role="status">
        {connected ? 'Live' : 'Reconnecting…'}
      </span>
      <div className="banner-end">
        {hasSession && <Bell />}
        <Link to="/terminals">Terminals</Link>
        <Link to="/sandboxes">Sandboxes</Link>
        <Link to="/settings">Settings</Link>
        {username !== null && (
          <>
            <span className="muted">{username}</span>
            <button type="button" onClick={() => void signOut()}>
              Sign out
            </button>
          </>
        )}
      </div>
    </header>
  );
}
