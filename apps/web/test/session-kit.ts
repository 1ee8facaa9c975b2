/**
 * What the session-view browser tests share: a scripted session with its box ready, the tool
 * results of a turn (the conversation over REST), where the app's socket says each browser is,
 * and the panes' tabs.
 */
import * as fs from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { boxPaths } from '../../control-plane/src/box-lifecycle/box-paths';
import { UiPresence } from '../../control-plane/src/ui-socket/ui-presence';
import { conversation, script } from '../../control-plane/test/agent/agent-kit';
import { waitFor, waitForBox } from '../../control-plane/test/box-kit';
import type { RunningApp } from '../../control-plane/test/harness';

export { script };

/** A script step calling a tool of the box's sessionboxer MCP server. */
export const sb = (tool: string, args: object = {}) => ({ call: `sessionboxer.${tool}`, args });

/** A session whose agent is the scripted harness, its box ready; returns its id. */
export async function scriptedSession(api: RunningApp, title: string): Promise<string> {
  const created = await api.request('POST', '/api/sessions', { title, provider: 'scripted' });
  if (created.status !== 201)
    throw new Error(`creating "${title}": ${created.status} ${JSON.stringify(created.body)}`);
  await waitForBox(api, created.body.id);
  return created.body.id as string;
}

/** Sends the agent a script over REST, as a person elsewhere (another tab, the API) would. */
export async function sendScript(api: RunningApp, id: string, ...steps: object[]): Promise<any> {
  const sent = await api.request('POST', `/api/sessions/${id}/prompts`, { text: script(...steps) });
  if (sent.status !== 202)
    throw new Error(`the prompt was refused: ${sent.status} ${JSON.stringify(sent.body)}`);
  return sent.body;
}

export interface ToolResult {
  name: string;
  error: boolean;
  /** The parsed JSON result, or the error's text. */
  value: any;
}

/** The tool results of a turn, in order, each with the name of the tool called. */
export async function toolResults(
  api: RunningApp,
  id: string,
  turn: number,
): Promise<ToolResult[]> {
  const { events } = await conversation(api, id);
  const names = new Map<string, string>();
  const results: ToolResult[] = [];
  for (const e of events) {
    if (e.turn !== turn) continue;
    if (e.type === 'tool_call') names.set(e.id, String(e.name).replace(/^.*__/, ''));
    if (e.type === 'tool_result') {
      let value: unknown = e.output;
      if (!e.error) {
        try {
          value = JSON.parse(e.output);
        } catch {
          // a text answer
        }
      }
      results.push({ name: names.get(e.id) ?? '', error: e.error, value });
    }
  }
  return results;
}

/** Waits for the result of the turn's first call to `tool`; fails on a tool error. */
export async function resultOf(
  api: RunningApp,
  id: string,
  turn: number,
  tool: string,
  ms = 30_000,
): Promise<any> {
  const result = await waitFor(
    `the result of ${tool} in turn ${turn}`,
    async () => (await toolResults(api, id, turn)).find((r) => r.name === tool),
    ms,
  );
  if (result.error) throw new Error(`${tool} failed: ${String(result.value)}`);
  return result.value;
}

/**
 * Waits until the control plane sees a browser on the session that is (or is not) typing.
 * The page says so over its socket (`watch`, `typing`); the app's own presence registry is
 * where an agent's ui_open looks, so a test waits on it before the agent asks.
 */
export async function browserOn(
  api: RunningApp,
  sessionId: string,
  typing: boolean,
  ms = 10_000,
): Promise<void> {
  const presence = api.app.get(UiPresence);
  const clients = (
    presence as unknown as { clients: Map<unknown, { sessionId: string | null; typing: boolean }> }
  ).clients;
  await waitFor(
    `a browser on ${sessionId}${typing ? ' typing' : ' not typing'}`,
    () => [...clients.values()].some((p) => p.sessionId === sessionId && p.typing === typing),
    ms,
  );
}

/** The host folder of the session box's /workspace. */
export function workspaceOf(api: RunningApp, sessionId: string): string {
  const dir = boxPaths(api.dataDir, sessionId).workspace;
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

export const panes = (page: Page): Locator => page.getByRole('tablist', { name: 'Panes' });
export const paneTab = (page: Page, name: string): Locator =>
  panes(page).getByRole('tab', { name, exact: true });
/** The tab selected now (exactly one is). */
export const selectedTab = (page: Page): Locator =>
  panes(page).getByRole('tab', { selected: true });
