import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export const REPO_ROOT = resolve(__dirname, '../../../..');

/**
 * A real MCP client connected to one of the box's stdio servers, started from source in its own
 * node process (as a box starts the compiled one), with its stderr kept for failure messages.
 */
export async function spawnStdioServer(
  entry: string,
  env: Record<string, string>,
): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['-r', '@swc-node/register', entry],
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'test-agent', version: '1' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}
