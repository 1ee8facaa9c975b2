import { errorText, get } from './api';
import { live } from './live';
import { getState, setState, updateView } from './store';
import type { SessionFrame, TranscriptPage } from '@sessionboxer/contracts';
import type { SessionParts } from './view-types';
import { appendEntries, applyLoadedPart, newView, partsOf } from './view-state';

const PAGE = 500;

/** Each part of the view and the REST route it is loaded from once. */
const PART_ROUTES: Record<Exclude<keyof SessionParts, 'session'>, string> = {
  queue: 'queue',
  approvals: 'approvals',
  prs: 'prs',
  verifications: 'verifications',
  recordings: 'recordings',
  notifications: 'notifications',
  snapshots: 'snapshots',
  terminals: 'terminals',
  policy: 'policy',
  limits: 'limits',
};

/** The whole transcript so far, page by page. */
async function loadTranscript(sessionId: string): Promise<void> {
  let after: number | undefined;
  for (;;) {
    const query = after === undefined ? `limit=${PAGE}` : `after=${after}&limit=${PAGE}`;
    const page = await get<TranscriptPage>(`/api/sessions/${sessionId}/transcript?${query}`);
    appendEntries(sessionId, page.entries);
    if (page.next === null) return;
    after = page.next;
  }
}

/** A part the server may not have yet (a route another change adds) leaves it empty. */
async function loadPart(sessionId: string, key: keyof typeof PART_ROUTES): Promise<void> {
  try {
    const body = await get<SessionFrame[typeof key]>(
      `/api/sessions/${sessionId}/${PART_ROUTES[key]}`,
    );
    applyLoadedPart(sessionId, partsOf({ [key]: body }));
  } catch (e) {
    console.warn(`could not load the ${key} of session ${sessionId}: ${errorText(e)}`);
  }
}

/**
 * Shows a session: its state once over REST, then the socket's frames. The watch is sent only
 * once the transcript is in, with its last position, so the feed continues exactly from there
 * (watching from "now" instead could skip what happened between the two).
 */
export async function showSession(sessionId: string | null): Promise<void> {
  // Until the new session's transcript is in, the page watches nothing: an agent's ui_open
  // for the session left behind must not count as shown.
  live.watch(null);
  setState({ view: sessionId === null ? null : newView(sessionId) });
  if (sessionId === null) return;
  const stillShown = () => getState().view?.sessionId === sessionId;
  try {
    const session = await get<SessionParts['session']>(`/api/sessions/${sessionId}`);
    applyLoadedPart(sessionId, { session });
    const parts = Object.keys(PART_ROUTES) as (keyof typeof PART_ROUTES)[];
    const transcript = loadTranscript(sessionId).then(() => {
      if (stillShown()) live.watch(sessionId);
    });
    await Promise.all([transcript, ...parts.map((k) => loadPart(sessionId, k))]);
    updateView(sessionId, () => ({ loading: false }));
  } catch (e) {
    updateView(sessionId, () => ({ loading: false, error: errorText(e) }));
  }
}

/**
 * Once the server is back, a view whose load failed while it was gone ("Session not found"
 * for a session that exists) loads again; a loaded one carries on from the socket's frames.
 */
live.onReconnect(() => {
  const view = getState().view;
  if (view !== null && view.error !== null) void showSession(view.sessionId);
});
