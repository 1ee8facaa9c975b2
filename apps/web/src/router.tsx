import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';

export type Route =
  | { name: 'home' }
  | { name: 'session'; id: string }
  | { name: 'settings' }
  | { name: 'terminals' }
  | { name: 'sandboxes' }
  | { name: 'sandbox-watch'; id: string }
  | { name: 'inbox' }
  | { name: 'cli-login'; id: string }
  | { name: 'missing' };

const CHANGE = 'sb:navigate';

export function parseRoute(pathname: string): Route {
  if (pathname === '/' || pathname === '') return { name: 'home' };
  if (pathname === '/settings' || pathname === '/settings/') return { name: 'settings' };
  if (pathname === '/terminals' || pathname === '/terminals/') return { name: 'terminals' };
  if (pathname === '/sandboxes' || pathname === '/sandboxes/') return { name: 'sandboxes' };
  if (pathname === '/inbox' || pathname === '/inbox/') return { name: 'inbox' };
  const login = /^\/cli-login\/([^/]+)\/?$/.exec(pathname);
  if (login) return { name: 'cli-login', id: decodeURIComponent(login[1]) };
  const watch = /^\/sandboxes\/([^/]+)\/watch\/?$/.exec(pathname);
  if (watch) return { name: 'sandbox-watch', id: decodeURIComponent(watch[1]) };
  const session = /^\/sessions\/([^/]+)\/?$/.exec(pathname);
  if (session) return { name: 'session', id: decodeURIComponent(session[1]) };
  return { name: 'missing' };
}

/** Goes to a page of the app without reloading it (the history API). */
export function navigate(path: string): void {
  if (path === location.pathname + location.hash) return;
  history.pushState(null, '', path);
  window.dispatchEvent(new Event(CHANGE));
}

export const sessionPath = (id: string): string => `/sessions/${encodeURIComponent(id)}`;

function subscribe(listener: () => void): () => void {
  window.addEventListener('popstate', listener);
  window.addEventListener(CHANGE, listener);
  return () => {
    window.removeEventListener('popstate', listener);
    window.removeEventListener(CHANGE, listener);
  };
}

/** The path shown; the component renders again when it changes. */
export function usePathname(): string {
  return useSyncExternalStore(subscribe, () => location.pathname);
}

/** A click that opens a new tab or window keeps the browser's own behaviour. */
function plainClick(e: MouseEvent): boolean {
  return e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey;
}

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { to: string };

/** A link to a page of the app: a real href, followed without a reload. */
export function Link({ to, onClick, ...rest }: LinkProps) {
  return (
    <a
      {...rest}
      href={to}
      onClick={(e) => {
        onClick?.(e);
        if (e.defaultPrevented || !plainClick(e)) return;
        e.preventDefault();
        navigate(to);
      }}
    />
  );
}
