import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { REPO_ROOT, spawnStdioServer } from '../../test/stdio-mcp';
import { decodePng, type DecodedPng } from './png-decode';

export { REPO_ROOT };
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
  const { client, stderr } = await spawnStdioServer(ENTRY, env);
  return {
    client,
    call: async (name, args = {}) =>
      (await client.callTool({ name, arguments: args }, undefined, {
        timeout: 90_000,
      })) as CallToolResult,
    stderr,
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
