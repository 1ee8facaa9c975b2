import { conversation } from './agent/agent-kit';
import { runTool } from './call-kit';
import type { RunningApp } from './harness';

let calls = 0;

/** A sessionboxer tool call as the gateway runs it for `sessionId`'s agent (no box needed). */
export function callTool(api: RunningApp, sessionId: string, tool: string, args: object = {}) {
  return runTool(api, sessionId, `test-call-${++calls}`, tool, args);
}

export async function createSession(api: RunningApp, title: string): Promise<string> {
  const reply = await api.request('POST', '/api/sessions', { title, provider: 'scripted' });
  expect(reply.status).toBe(201);
  return reply.body.id as string;
}

/** The prompts a schedule sent to a session, oldest first. */
export async function promptsFrom(api: RunningApp, sessionId: string, scheduleId: string) {
  const events = ((await conversation(api, sessionId)).events ?? []) as any[];
  return events.filter(
    (e) =>
      e.type === 'prompt' && e.from?.kind === 'system' && e.from.id === `schedule:${scheduleId}`,
  );
}

export async function schedule(api: RunningApp, id: string): Promise<any> {
  const list = (await api.request('GET', '/api/schedules')).body as any[];
  return list.find((s) => s.id === id);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
