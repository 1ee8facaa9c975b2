import { waitFor } from '../box-kit';
import type { RunningApp } from '../harness';

/** A prompt for the scripted harness: its steps as JSON (see apps/box-agent/src/harness/scripted). */
export const script = (...steps: object[]): string => JSON.stringify({ script: steps });

export interface Entry {
  kind: 'marker' | 'event';
  position: number;
  marker?: { kind: string; text: string };
  event?: { type: string; seq: number; turn: number; [k: string]: any };
}

/** The whole transcript of a session, every page. */
export async function transcript(api: RunningApp, sessionId: string): Promise<Entry[]> {
  const entries: Entry[] = [];
  let after = -1;
  for (;;) {
    const page = (
      await api.request('GET', `/api/sessions/${sessionId}/transcript?after=${after}&limit=500`)
    ).body;
    entries.push(...page.entries);
    if (page.next === null) return entries;
    after = page.next;
  }
}

/** The session's conversation as the admin API shows it (header and spec-shaped events). */
export async function conversation(api: RunningApp, sessionId: string): Promise<any> {
  return (await api.request('GET', `/api/sessions/${sessionId}/conversation?limit=500`)).body;
}

/** Waits until `turn` has its turn_finished event; returns that event. */
export async function turnFinished(
  api: RunningApp,
  sessionId: string,
  turn: number,
  ms = 30_000,
): Promise<any> {
  return waitFor(
    `turn ${turn} of ${sessionId} to finish`,
    async () =>
      (await conversation(api, sessionId)).events?.find(
        (e: any) => e.type === 'turn_finished' && e.turn === turn,
      ),
    ms,
  );
}

/** Waits until the agent runs `turn` (its prompt event recorded and the turn not over). */
export async function turnRunning(api: RunningApp, sessionId: string, turn: number) {
  return waitFor(`turn ${turn} of ${sessionId} to run`, async () => {
    const c = await conversation(api, sessionId);
    return c.conversation?.currentTurn === turn ? c : null;
  });
}

/** A short line for each entry, to compare orders: "prompt#1", "marker:session-renamed" … */
export function shape(entries: Entry[]): string[] {
  return entries.map((e) =>
    e.kind === 'marker'
      ? `marker:${e.marker?.kind}`
      : `${e.event?.type}#${e.event?.turn}${e.event?.name ? `:${e.event.name}` : ''}`,
  );
}
