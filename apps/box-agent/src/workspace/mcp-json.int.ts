import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { McpJsonFile } from './mcp-json';

const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
const input = {
  nodePath: '/usr/bin/node',
  commandRoot: '/opt/sessionboxer/mcp',
  daemonUrl: 'http://127.0.0.1:7000',
};

/** The workspace's .mcp.json as the daemon writes it, on a real folder. */
describe('McpJsonFile: the built-in servers and the Global settings registry', () => {
  let workspace: string;
  const read = () =>
    JSON.parse(readFileSync(path.join(workspace, '.mcp.json'), 'utf8')) as {
      mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }>;
    };
  beforeEach(() => {
    workspace = mkdtempSync(path.join(tmpdir(), 'mcp-json-'));
  });
  afterEach(() => rmSync(workspace, { recursive: true, force: true }));

  it('lists a relayed server as the relay process and a stdio one as its command', async () => {
    const file = new McpJsonFile(workspace, log);
    await file.setRegistry([{ name: 'terminals', relay: 'terminals' }]); // waits for write()
    await file.write(input);
    await file.setRegistry([
      { name: 'terminals', relay: 'terminals' },
      { name: 'pg', command: ['npx', '-y', 'mcp-postgres'], env: { PGHOST: 'db' } },
    ]);
    const { mcpServers } = read();
    expect(Object.keys(mcpServers).sort()).toEqual(['desktop', 'pg', 'sessionboxer', 'terminals']);
    expect(mcpServers.terminals).toEqual({
      command: '/usr/bin/node',
      args: ['/opt/sessionboxer/mcp/relay-server.js', 'terminals'],
      env: { SESSIONBOXER_DAEMON_URL: 'http://127.0.0.1:7000' },
    });
    expect(mcpServers.pg).toEqual({
      command: 'npx',
      args: ['-y', 'mcp-postgres'],
      env: { PGHOST: 'db' },
    });
  });

  it('takes out what the registry no longer gives, also after a daemon restart, and keeps others', async () => {
    writeFileSync(
      path.join(workspace, '.mcp.json'),
      JSON.stringify({ mcpServers: { mine: { command: 'x', args: [], env: {} } } }),
    );
    const first = new McpJsonFile(workspace, log);
    await first.write(input);
    await first.setRegistry([{ name: 'terminals', relay: 'terminals' }]);
    expect(Object.keys(read().mcpServers)).toContain('terminals');
    const restarted = new McpJsonFile(workspace, log);
    await restarted.write(input);
    await restarted.setRegistry([]);
    expect(Object.keys(read().mcpServers).sort()).toEqual(['desktop', 'mine', 'sessionboxer']);
  });

  it('settles once the writes asked for so far are in the file', async () => {
    const file = new McpJsonFile(workspace, log);
    void file.write(input);
    void file.setRegistry([{ name: 'terminals', relay: 'terminals' }]);
    await file.settled();
    expect(Object.keys(read().mcpServers).sort()).toEqual(['desktop', 'sessionboxer', 'terminals']);
  });
});
