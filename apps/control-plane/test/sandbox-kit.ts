import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DEFAULT_ORG_ID } from '@sessionboxer/domain/org';
import { startApp, type RunningApp } from './harness';

/** A control plane with boxes for sandboxes, and keys made over the admin API. */
export async function startSandboxApp(
  logs?: NodeJS.WritableStream,
  extra: Record<string, string> = {},
): Promise<RunningApp> {
  // Sessions' boxes stay off; sandboxes start their own through the same driver.
  const env: Record<string, string> = logs ? { SESSIONBOXER_LOG_LEVEL: 'debug' } : {};
  return startApp(undefined, { SESSIONBOXER_BOXES: 'off', ...env, ...extra }, { logs });
}

export async function makeKey(
  api: RunningApp,
  scopes = ['sandboxes:read', 'sandboxes:write'],
  orgId = DEFAULT_ORG_ID,
): Promise<{ key: string; keyId: string }> {
  const res = await api.request('POST', `/api/orgs/${orgId}/api-keys`, { name: 'test', scopes });
  if (res.status !== 201) throw new Error(`key refused: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { key: string; keyId: string };
}

/** A real SDK client over Streamable HTTP with the key as its bearer. */
export async function mcpClient(api: RunningApp, key: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  const client = new Client({ name: 'sandbox-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** Calls a tool; the parsed JSON answer and whether it was a tool error. */
export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ isError: boolean; body: any }> {
  const res = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: { type: string; text: string }[];
  };
  const text = res.content[0]?.text ?? '';
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // The SDK's own refusals (bad arguments) are plain text.
  }
  return { isError: res.isError === true, body };
}

const CLI_MAIN = path.join(__dirname, '../../../tools/cli/main.ts');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The real CLI (`npm run sessionboxer -- …`) against the control plane at `url` with `key`. */
export function runCli(url: string, key: string, ...args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-r', '@swc-node/register', CLI_MAIN, ...args],
      { env: { ...process.env, SESSIONBOXER_URL: url, SESSIONBOXER_API_KEY: key } },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}
