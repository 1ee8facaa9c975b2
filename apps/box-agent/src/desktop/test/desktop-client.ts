import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { decodePng, type DecodedPng } from './png-decode';

export const REPO_ROOT = resolve(__dirname, '../../../../..');
const ENTRY = 'apps/box-agent/src/mcp/desktop-server.ts';

export interface DesktopClient {
  client: Client;
  /** Calls a tool; the result as the agent gets it. */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  stderr(): string;
  close(): Promise<void>;
}

/** The desktop server as a box starts it: its own node process speaking MCP over stdio. */
export async function startDesktopServer(env: Record<string, string>): Promise<DesktopClient> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['-r', '@swc-node/register', ENTRY],
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'test-agent', version: '1' });
  await client.connect(transport);
  return {
    client,
    call: async (name, args = {}) =>
      (await client.callTool({ name, arguments: args }, undefined, {
        timeout: 90_000,
      })) as CallToolResult,
    stderr: () => stderr,
    close: () => client.close(),
  };
}

export function textOf(result: CallToolResult): string {
  const [first] = result.content;
  return first?.type === 'text' ? first.text : '';
}

/** The PNG of an image answer, decoded (throws when the answer is not one image/png). */
export function imageOf(result: CallToolResult): DecodedPng & { bytes: Buffer } {
  const [first] = result.content;
  if (result.isError || first?.type !== 'image' || first.mimeType !== 'image/png') {
    throw new Error(`not a PNG answer: ${JSON.stringify(result).slice(0, 300)}`);
  }
  const bytes = Buffer.from(first.data, 'base64');
  return { ...decodePng(bytes), bytes };
}
