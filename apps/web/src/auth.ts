import { api, ApiError, get, setUnauthenticatedHandler } from './api';
import { live } from './live';
import { setState } from './store';
import type { SidebarNode, SignedIn, SignInAnswer } from '@sessionboxer/contracts';

function signedOut(): void {
  live.stop();
  setState({ auth: 'signed-out', username: null, sidebar: null, view: null });
}

async function signedIn(username: string | null): Promise<void> {
  setState({ auth: 'signed-in', username });
  live.start();
  try {
    setState({ sidebar: await get<SidebarNode[]>('/api/sidebar?archived=true') });
  } catch (e) {
    console.warn('could not load the sidebar', e);
    setState((s) => ({ sidebar: s.sidebar ?? [] }));
  }
}

/**
 * At start: signed in (the cookie) or not. A control plane that does not answer shows the
 * sign-in page too, where trying again says what went wrong.
 */
export async function checkAuth(): Promise<void> {
  setUnauthenticatedHandler(signedOut);
  try {
    const me = await api<SignedIn>('GET', '/api/auth/me', undefined, {
      quiet401: true,
    });
    await signedIn(me.username);
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 401))
      console.warn('could not ask who is signed in', e);
    signedOut();
  }
}

/** Resolves false for a wrong user name or password. */
export async function signIn(username: string, password: string): Promise<boolean> {
  try {
    const me = await api<SignInAnswer>(
      'POST',
      '/api/auth/sign-in',
      { username, password },
      { quiet401: true },
    );
    await signedIn(me.username);
    return true;
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return false;
    throw e;
  }
}

export async function signOut(): Promise<void> {
  await api('POST', '/api/auth/sign-out').catch(() => undefined);
  signedOut();
}
