import { useSyncExternalStore } from 'react';
import type { SidebarNode, TranscriptEntry } from '@sessionboxer/contracts';
import type { PaneFocus, PaneName, SessionParts } from './view-types';

/** The session the page shows: its transcript so far and the rest of its state. */
export interface SessionState {
  sessionId: string;
  loading: boolean;
  /** Why the session could not be loaded (it does not exist, …). */
  error: string | null;
  entries: TranscriptEntry[];
  /** The last transcript position the page has: what `watch` sends as `after`. */
  after: number | undefined;
  parts: SessionParts;
  /** A `session` frame arrived: from then on the REST answers of the first load are stale. */
  framed: boolean;
  pane: PaneName;
  /** What the open pane brings into view; `n` changes with every request. */
  focus: (PaneFocus & { n: number }) | null;
}

export interface AppState {
  auth: 'checking' | 'signed-in' | 'signed-out';
  username: string | null;
  sidebar: SidebarNode[] | null;
  /** Whether the live socket is open. */
  connected: boolean;
  view: SessionState | null;
}

export const emptyParts: SessionParts = {
  session: null,
  queue: [],
  approvals: [],
  prs: [],
  verifications: [],
  recordings: [],
  notifications: [],
  snapshots: [],
  terminals: [],
  policy: null,
  limits: null,
};

let state: AppState = {
  auth: 'checking',
  username: null,
  sidebar: null,
  connected: false,
  view: null,
};
const listeners = new Set<() => void>();

export function getState(): AppState {
  return state;
}

export function setState(change: Partial<AppState> | ((s: AppState) => Partial<AppState>)): void {
  const patch = typeof change === 'function' ? change(state) : change;
  state = { ...state, ...patch };
  for (const listener of listeners) listener();
}

/** Changes the shown session's state, if it is still `sessionId` (answers can come late). */
export function updateView(
  sessionId: string,
  change: (view: SessionState) => Partial<SessionState>,
): void {
  setState((s) =>
    s.view?.sessionId === sessionId ? { view: { ...s.view, ...change(s.view) } } : {},
  );
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A slice of the state; the component renders again when it changes (by identity). */
export function useStore<T>(select: (s: AppState) => T): T {
  return useSyncExternalStore(subscribe, () => select(state));
}
