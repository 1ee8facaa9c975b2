import { useEffect } from 'react';
import { checkAuth } from './auth';
import { AppHeader } from './components/AppHeader';
import { CliLoginPage } from './components/CliLoginPage';
import { CommandPalette } from './components/palette/CommandPalette';
import { Home } from './components/Home';
import { InboxPage } from './components/inbox/InboxPage';
import { useInboxSync, useSessionOpenedReads } from './components/inbox/inbox-store';
import { SessionView } from './components/SessionView';
import { SandboxesPage } from './components/sandboxes/SandboxesPage';
import { SandboxWatchPage, watchToken } from './components/sandboxes/SandboxWatchPage';
import { SettingsPage } from './components/SettingsPage';
import { Sidebar } from './components/Sidebar';
import { SignIn } from './components/SignIn';
import { TerminalApprovals } from './components/terminals/TerminalApprovals';
import { TerminalsPage } from './components/terminals/TerminalsPage';
import { parseRoute, usePathname, type Route } from './router';
import { showSession } from './session-loader';
import { useStore } from './store';

function Page({ route }: { route: Route }) {
  switch (route.name) {
    case 'home':
      return <Home />;
    case 'session':
      return <SessionView sessionId={route.id} />;
    case 'settings':
      return <SettingsPage />;
    case 'terminals':
      return <TerminalsPage />;
    case 'sandboxes':
      return <SandboxesPage />;
    case 'sandbox-watch':
      return <SandboxWatchPage sandboxId={route.id} />;
    case 'inbox':
      return <InboxPage />;
    case 'cli-login':
      return <CliLoginPage requestId={route.id} />;
    case 'missing':
      return (
        <>
          <h1>Page not found</h1>
          <p>Nothing lives at {location.pathname}.</p>
        </>
      );
  }
}

/** The signed-in app: banner, the sessions' tree and the page of the route. */
function Shell() {
  const route = parseRoute(usePathname());
  const sessionId = route.name === 'session' ? route.id : null;
  useEffect(() => {
    void showSession(sessionId);
  }, [sessionId]);
  useInboxSync();
  useSessionOpenedReads(sessionId);
  return (
    <div className="app">
      <AppHeader />
      <CommandPalette />
      <div className="layout">
        <Sidebar currentId={sessionId} />
        <main className="page" id="main">
          <TerminalApprovals />
          <Page route={route} />
        </main>
      </div>
    </div>
  );
}

export function App() {
  const auth = useStore((s) => s.auth);
  const route = parseRoute(usePathname());
  useEffect(() => {
    void checkAuth();
  }, []);
  // A watch link with a sandbox token needs no sign-in: the token is the pass.
  const token = route.name === 'sandbox-watch' ? watchToken() : undefined;
  if (route.name === 'sandbox-watch' && token)
    return (
      <main className="page watch-only" id="main">
        <SandboxWatchPage sandboxId={route.id} token={token} />
      </main>
    );
  if (auth === 'signed-out') return <SignIn />;
  if (auth === 'checking')
    return (
      <main className="loading">
        <h1>Sessionboxer</h1>
        <p>Loading…</p>
      </main>
    );
  return <Shell />;
}
