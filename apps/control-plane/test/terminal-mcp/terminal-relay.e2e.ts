import * as fs from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { z } from 'zod';
import { McpRelays, RELAY_CONNECTIONS_MAX } from '../../src/mcp-registry';
import { call, mcpClientInBox, waitForBox } from '../box-kit';
import { startTerminalWorld, until, type TerminalWorld } from './terminal-kit';

const SHELLWATCH_TOOLS = [
  'shellwatch_close_session',
  'shellwatch_create_session',
  'shellwatch_list_sessions',
  'shellwatch_manage_endpoints',
  'shellwatch_manage_keys',
  'shellwatch_read_output',
  'shellwatch_send_keys',
];

const outputAvailable = z.object({
  method: z.literal('notifications/output_available'),
  params: z.object({ sessionId: z.string(), offset: z.number() }),
});

/**
 * The terminal MCP given to a session's agent by Global settings' MCP registry: a real box,
 * its .mcp.json's `terminals` entry run inside it (the daemon's relay), a real SDK client on
 * its stdio, a real sshd, and the approval card in that session's transcript.
 */
describe('the terminal MCP through the MCP registry, for a session in a real box', () => {
  let world: TerminalWorld;
  let sessionId: string;
  let endpointId: string;
  let client: Client | null = null;
  const notified: { sessionId: string; offset: number }[] = [];

  const mcpJson = async () => {
    const session = (await world.api.request('GET', `/api/sessions/${sessionId}`)).body;
    return JSON.parse(fs.readFileSync(session.box.mcpJsonPath, 'utf8')) as {
      mcpServers: Record<string, { command: string; args: string[] }>;
    };
  };
  const markers = async () =>
    (await world.api.request('GET', `/api/sessions/${sessionId}/transcript?limit=500`)).body.entries
      .map((e: { marker?: unknown }) => e.marker)
      .filter(Boolean) as { kind: string; text: string; link: unknown }[];
  const terminal = async (id: string) =>
    ((await world.api.request('GET', '/api/terminals')).body as any[]).find(
      (t) => t.terminalId === id,
    );

  beforeAll(async () => {
    world = await startTerminalWorld({
      SESSIONBOXER_BOXES: 'on',
      SESSIONBOXER_TERMINAL_MCP_LEASE_MS: '10000',
    });
    const e = await world.api.request('POST', '/api/terminals/endpoints', {
      name: 'loopback sshd',
      host: '127.0.0.1',
      port: world.sshd.port,
      user: world.sshd.user,
      keyId: world.keyId,
    });
    expect(e.status).toBe(201);
    endpointId = e.body.endpointId;
    const created = await world.api.request('POST', '/api/sessions', { title: 'Ops agent' });
    sessionId = created.body.id;
    await waitForBox(world.api, sessionId);
  }, 60_000);

  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await world?.stop();
    if (world) fs.rmSync(world.api.dataDir, { recursive: true, force: true });
  });

  it('is not in the box until a person gives it, then .mcp.json lists the relay', async () => {
    expect(Object.keys((await mcpJson()).mcpServers).sort()).toEqual(['desktop', 'sessionboxer']);
    const given = await world.api.request('PUT', '/api/settings/mcp-registry/relays/terminals', {
      given: true,
    });
    expect(given.status).toBe(200);
    expect(given.body.settings.mcpRegistry).toEqual([{ name: 'terminals', relay: 'terminals' }]);
    const entry = await until(async () => (await mcpJson()).mcpServers.terminals, '.mcp.json');
    expect(entry.args.at(-1)).toBe('terminals');
    expect(entry.args[0]).toMatch(/relay-server\.js$/);
  });

  it("lets the box's agent open a terminal that a person allows, shown in its transcript", async () => {
    const c = await mcpClientInBox(world.api, sessionId, 'terminals');
    client = c;
    c.fallbackNotificationHandler = (n) => {
      const parsed = outputAvailable.safeParse(n);
      if (parsed.success) notified.push(parsed.data.params);
      return Promise.resolve();
    };
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(SHELLWATCH_TOOLS);
    expect((await call(c, 'shellwatch_manage_endpoints', { action: 'list' })).length).toBe(1);
    // An agent may use endpoints, not write them.
    await expect(
      call(c, 'shellwatch_manage_endpoints', { action: 'delete', endpointId }),
    ).rejects.toThrow(/no endpoint write access/);

    const opened = await call(c, 'shellwatch_create_session', { endpointId });
    expect(opened).toEqual({ sessionId: expect.any(String), endpointId, status: 'pending' });
    const requested = await until(
      async () => (await markers()).find((m) => m.kind === 'ssh-terminal-requested'),
      'the approval marker in the transcript',
    );
    expect(requested.text).toBe(
      `asked to open an SSH terminal on loopback sshd (${world.sshd.user}@127.0.0.1:${world.sshd.port})`,
    );
    expect(requested.link).toEqual({ sshTerminalId: opened.sessionId });
    expect((await terminal(opened.sessionId)).requester).toBe('the agent of session “Ops agent”');

    const allowed = await world.api.request('POST', `/api/terminals/${opened.sessionId}/allow`);
    expect(allowed.status).toBe(201);
    await until(async () => {
      const list = await call(c, 'shellwatch_list_sessions');
      return list.find((s: any) => s.sessionId === opened.sessionId)?.status === 'open';
    }, 'the terminal to open');
    await call(c, 'shellwatch_send_keys', {
      sessionId: opened.sessionId,
      keys: ['text:echo relayed-$((6*7))', 'enter'],
    });
    const page = await until(async () => {
      const read = await call(c, 'shellwatch_read_output', { sessionId: opened.sessionId });
      return read.data.includes('relayed-42') ? read : null;
    }, 'the echo in the output');
    expect(page.startOffset).toBe(0);
    // Notifications come back through the relay (with answers, or its keepalive).
    await until(() => notified.some((n) => n.sessionId === opened.sessionId), 'output_available');
    expect((await markers()).map((m) => m.text)).toContain(
      'the SSH terminal on loopback sshd was allowed',
    );
  }, 60_000);

  it('keeps it from other callers: an outside client sees nothing of it', async () => {
    const outside = await world.client();
    const [mine] = (await call(client!, 'shellwatch_list_sessions')) as { sessionId: string }[];
    expect(await outside.call('shellwatch_list_sessions', {})).toEqual([]);
    const madeUpId = '00000000-0000-4000-8000-000000000000';
    const theirs = await outside.refused('shellwatch_read_output', { sessionId: mine.sessionId });
    const madeUp = await outside.refused('shellwatch_read_output', { sessionId: madeUpId });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.message.replace(mine.sessionId, 'ID')).toBe(
      madeUp.message.replace(madeUpId, 'ID'),
    );
  });

  it("closes the agent's terminals when its relay ends, and says so in the transcript", async () => {
    const [mine] = (await call(client!, 'shellwatch_list_sessions')) as { sessionId: string }[];
    await client!.close();
    client = null;
    await until(async () => (await terminal(mine.sessionId))?.status === 'closed', 'the close');
    const texts = (await markers()).map((m) => m.text);
    expect(texts).toContain('the SSH terminal on loopback sshd closed (transport-disconnected)');
  });

  it('holds at most 16 relayed connections per session, and frees one when it closes', async () => {
    const relays = world.api.app.get(McpRelays);
    const open = (i: number) =>
      relays.handle(sessionId, 'terminals', { connection: `conn-${i}-x` });
    for (let i = 0; i < RELAY_CONNECTIONS_MAX; i++) await open(i);
    await expect(open(99)).rejects.toThrow(/holds 16 relayed MCP connections, the most it may/);
    await relays.handle(sessionId, 'terminals', { connection: 'conn-0-x', close: true });
    await expect(open(99)).resolves.toEqual({ messages: [] });
    for (const i of [...Array(RELAY_CONNECTIONS_MAX).keys(), 99]) {
      await relays.handle(sessionId, 'terminals', { connection: `conn-${i}-x`, close: true });
    }
  });

  it('refuses the relay once the registry no longer gives it', async () => {
    const kept = (await mcpJson()).mcpServers.terminals;
    expect(kept).toBeDefined();
    await world.api.request('PUT', '/api/settings/mcp-registry/relays/terminals', { given: false });
    await until(async () => !(await mcpJson()).mcpServers.terminals, '.mcp.json without it');
    // A relay still started the old way reaches nothing: its first message is refused.
    await expect(mcpClientInBox(world.api, sessionId, 'terminals', kept)).rejects.toThrow(
      /no MCP server terminals is given to sessions' agents/,
    );
  });
});
