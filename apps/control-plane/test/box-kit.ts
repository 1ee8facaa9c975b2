import * as fs from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { LocalBoxDriver } from '../src/boxes/driver';
import { BOX_DRIVER } from '../src/infrastructure/tokens';
import type { RunningApp } from './harness';

/** Polls the admin API until the session's box has `status` (or fails with what it saw). */
export async function waitForBox(
  api: RunningApp,
  sessionId: string,
  status = 'ready',
  ms = 15_000,
): Promise<any> {
  const until = Date.now() + ms;
  let last: any = null;
  while (Date.now() < until) {
    last = (await api.request('GET', `/api/sessions/${sessionId}`)).body;
    if (last?.box?.status === status) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(
    `box of ${sessionId} never became ${status}; last seen: ${JSON.stringify(last?.box)}`,
  );
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  ms = 10_000,
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * An MCP client connected to the `sessionboxer` server started exactly as the box's
 * .mcp.json writes it, inside the box (same mounts and network namespace as its daemon).
 */
export async function mcpClientInBox(
  api: RunningApp,
  sessionId: string,
  server = 'sessionboxer',
  /** The entry to run instead of .mcp.json's (one the file no longer lists). */
  given?: { command: string; args: string[]; env?: Record<string, string> },
): Promise<Client> {
  const session = (await api.request('GET', `/api/sessions/${sessionId}`)).body;
  const mcpJson = JSON.parse(fs.readFileSync(session.box.mcpJsonPath, 'utf8')) as {
    mcpServers: Record<string, { command: string; args: string[]; env?: Record<string, string> }>;
  };
  const entry = given ?? mcpJson.mcpServers[server];
  const driver = api.app.get<LocalBoxDriver>(BOX_DRIVER);
  const plan = driver.execPlan(sessionId, [entry.command, ...entry.args], { env: entry.env ?? {} });
  const transport = new StdioClientTransport({
    command: plan.command,
    args: plan.args,
    env: plan.env,
    cwd: plan.cwd,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** Calls a tool; returns its JSON result, or throws with the tool error's text. */
export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<any> {
  const result = (await client.callTool({ name, arguments: args })) as {
    content: { type: string; text: string }[];
    isError?: boolean;
  };
  const text = result.content.map((c) => c.text).join('');
  if (result.isError) throw new Error(text);
  return JSON.parse(text);
}

/** Calls a tool expected to fail; returns the error text the agent sees. */
export async function callError(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<string> {
  try {
    const result = (await client.callTool({ name, arguments: args })) as {
      content: { text: string }[];
      isError?: boolean;
    };
    if (!result.isError) throw new Error(`${name} succeeded: ${JSON.stringify(result)}`);
    return result.content.map((c) => c.text).join('');
  } catch (e) {
    if (e instanceof Error && e.message.startsWith(`${name} succeeded`)) throw e;
    return e instanceof Error ? e.message : String(e);
  }
}
