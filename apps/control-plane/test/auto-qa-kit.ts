import { conversation, script } from './agent/agent-kit';
import { waitForBox } from './box-kit';
import type { RunningApp } from './harness';

/** A script step calling a tool of the box's sessionboxer MCP server (the e2e tools too). */
export const qa = (tool: string, args: object = {}) => ({ call: `sessionboxer.${tool}`, args });

export interface ToolResult {
  name: string;
  error: boolean;
  /** The parsed JSON result, or the error's text. */
  value: any;
}

/** A session whose agent is the scripted harness, its box ready. */
export async function scriptedSession(api: RunningApp, title: string): Promise<string> {
  const created = await api.request('POST', '/api/sessions', { title, provider: 'scripted' });
  expect(created.status).toBe(201);
  await waitForBox(api, created.body.id);
  return created.body.id as string;
}

/** Sends the session's agent a prompt that is a script of these steps, as a person. */
export async function sendScript(api: RunningApp, id: string, ...steps: object[]) {
  const sent = await api.request('POST', `/api/sessions/${id}/prompts`, { text: script(...steps) });
  expect(sent.status).toBe(202);
}

/** The tool results of a turn, in order, each with the name of the tool called. */
export async function toolResults(
  api: RunningApp,
  id: string,
  turn: number,
): Promise<ToolResult[]> {
  const { events } = await conversation(api, id);
  const calls = new Map<string, string>(
    events.filter((e: any) => e.type === 'tool_call').map((e: any) => [e.id, e.name]),
  );
  return events
    .filter((e: any) => e.type === 'tool_result' && e.turn === turn)
    .map((e: any) => ({
      name: (calls.get(e.id) ?? '').replace('mcp__sessionboxer__', ''),
      error: e.error as boolean,
      value: e.error ? (e.output as string) : JSON.parse(e.output),
    }));
}

/** GET /api/sessions/:id/verifications. */
export async function verificationRuns(api: RunningApp, id: string): Promise<any[]> {
  return (await api.request('GET', `/api/sessions/${id}/verifications`)).body;
}
