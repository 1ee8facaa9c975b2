import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { WHOAMI } from '@sessionboxer/mcp-adapters/sessionboxer/test/recording-handlers';
import { resolve } from 'node:path';
import { REPO_ROOT, spawnStdioServer } from '../test/stdio-mcp';
import { deadUrl, startFakeDaemon, type FakeDaemon } from './test/fake-daemon';

/**
 * The server as a box starts it: its own node process speaking MCP over stdio, configured by
 * environment. If anything but MCP reached stdout, the client could not parse the stream.
 */
const ENTRY = 'apps/box-agent/src/mcp/sessionboxer-server.ts';

function spawnServer(
  env: Record<string, string>,
): Promise<{ client: Client; stderr: () => string }> {
  return spawnStdioServer(ENTRY, env);
}

function text(result: unknown): string {
  const [first] = (result as CallToolResult).content;
  return first.type === 'text' ? first.text : '';
}

let daemon: FakeDaemon;
beforeAll(async () => {
  daemon = await startFakeDaemon();
});
afterAll(() => daemon.close());

describe('sessionboxer-server over stdio', () => {
  it('lists the tools, round-trips a call and answers docs from SESSIONBOXER_GUIDE_PATH', async () => {
    const { client, stderr } = await spawnServer({
      SESSIONBOXER_DAEMON_URL: daemon.url,
      SESSIONBOXER_GUIDE_PATH: resolve(REPO_ROOT, 'docs/GUIDE.md'),
    });
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(30);
      expect(client.getServerVersion()?.name).toBe('sessionboxer');

      const whoami = await client.callTool({ name: 'whoami', arguments: {} });
      expect(JSON.parse(text(whoami))).toEqual(WHOAMI);
      expect(daemon.posts.map((p) => p.tool)).toEqual(['whoami']);

      const docs = await client.callTool({ name: 'docs', arguments: { query: 'mcp.json' } });
      expect(JSON.parse(text(docs)).sections[0].heading).toBe('.mcp.json');
    } finally {
      await client.close();
    }
    expect(stderr()).not.toMatch(/failed to start/);
  });

  it('reports an unreachable SESSIONBOXER_DAEMON_URL as a tool error', async () => {
    const url = await deadUrl();
    const { client } = await spawnServer({ SESSIONBOXER_DAEMON_URL: url });
    try {
      const result = await client.callTool({ name: 'pr_list', arguments: {} });
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(
        `the box's daemon at ${url} is unreachable: connect ECONNREFUSED`,
      );
    } finally {
      await client.close();
    }
  });
});
