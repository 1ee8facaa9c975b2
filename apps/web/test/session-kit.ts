/**
 * What the browser tests share beyond the browser: a control plane for the suite with its
 * browser (useControlPlane), a scripted session with its box ready (useScriptedSession), the
 * tool results of a turn (the conversation over REST), where the app's socket says each
 * browser is, and the panes' tabs.
 */
import * as fs from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { boxPaths } from '../../control-plane/src/boxes/lifecycle/box-paths';
import { UiPresence } from '../../control-plane/src/presence/ui-presence';
import { conversation, script } from '../../control-plane/test/agent/agent-kit';
import { waitFor, waitForBox } from '../../control-plane/test/box-kit';
import { startApp, type RunningApp } from '../../control-plane/test/harness';
import { markPage, openBrowser, openSession, signIn, type BrowserKit } from './browser-kit';

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

export interface ControlPlaneOptions {
  /** The sessions' agents run in real boxes (SESSIONBOXER_BOXES=on); the setup has 60 s. */
  boxes?: boolean;
  /** More of the suite's setup once the app runs (the settings it needs), in the same beforeAll. */
  setup?: (api: RunningApp) => Promise<unknown>;
  /** A browser for each test, closed after it, instead of one for the whole suite. */
  browserPerTest?: boolean;
}

/** A suite's control plane and its browser, both opened and closed by the suite's hooks. */
export interface ControlPlane {
  /** The running app (from the suite's beforeAll on). */
  readonly api: RunningApp;
  /** The browser, opened on first use. */
  browser(): Promise<BrowserKit>;
  /** The browser's page, signed in through the real form (once a browser). */
  signedIn(): Promise<Page>;
  /** Signed in, the view of the session titled `title` open, the page marked (stillSamePage). */
  openView(title: string): Promise<Page>;
}

/**
 * Starts a control plane over its own data folder in beforeAll; closes the browser (printing
 * what its page threw or logged as errors) after each test or after the suite, and the app and
 * its data folder after the suite.
 */
export function useControlPlane(options: ControlPlaneOptions = {}): ControlPlane {
  let api: RunningApp | undefined;
  let kit: BrowserKit | undefined;
  let signedIn = false;
  const closeBrowser = async (): Promise<void> => {
    if (kit?.errors.length) console.warn(kit.errors.join('\n'));
    await kit?.close();
    kit = undefined;
    signedIn = false;
  };

  beforeAll(
    async () => {
      api = await startApp(undefined, options.boxes ? { SESSIONBOXER_BOXES: 'on' } : {});
      await options.setup?.(api);
    },
    options.boxes ? 60_000 : undefined,
  );
  if (options.browserPerTest) afterEach(closeBrowser);
  afterAll(async () => {
    await closeBrowser();
    await api?.close();
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  const plane: ControlPlane = {
    get api(): RunningApp {
      if (!api) throw new Error('the control plane is not running (useControlPlane starts it)');
      return api;
    },
    async browser() {
      kit ??= await openBrowser();
      return kit;
    },
    async signedIn() {
      const { page } = await plane.browser();
      if (!signedIn) {
        await signIn(page, plane.api);
        signedIn = true;
      }
      return page;
    },
    async openView(title) {
      const page = await plane.signedIn();
      await openSession(page, title);
      await markPage(page);
      return page;
    },
  };
  return plane;
}

/** A suite's control plane, with boxes, and a session whose agent is the scripted harness. */
export interface ScriptedSession extends ControlPlane {
  /** The session's id (from the suite's beforeAll on). */
  readonly id: string;
  /** The session's view, or that of the session titled `title`, as ControlPlane's openView. */
  openView(title?: string): Promise<Page>;
}

/**
 * useControlPlane with boxes, and a scripted session titled `title` created in its beforeAll,
 * its box ready, after the options' setup.
 */
export function useScriptedSession(
  title: string,
  options: Omit<ControlPlaneOptions, 'boxes'> = {},
): ScriptedSession {
  let id: string | undefined;
  const plane = useControlPlane({
    ...options,
    boxes: true,
    setup: async (api) => {
      await options.setup?.(api);
      id = await scriptedSession(api, title);
    },
  });
  return {
    get api() {
      return plane.api;
    },
    get id(): string {
      if (id === undefined) throw new Error(`the session "${title}" is not created yet`);
      return id;
    },
    browser: () => plane.browser(),
    signedIn: () => plane.signedIn(),
    openView: (other = title) => plane.openView(other),
  };
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
