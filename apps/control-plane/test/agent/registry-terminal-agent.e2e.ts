import * as fs from 'node:fs';
import * as path from 'node:path';
import { ModelProviderDouble, say, use } from '../doubles/model-provider/model-provider-double';
import { startTerminalWorld, until, type TerminalWorld } from '../terminal-mcp/terminal-kit';
import { conversation, turnFinished } from './agent-kit';
import { workspaceOf } from './box-secrets-kit';
import { readySession, realKey } from './real-agent-kit';

/** The end of OpenCode's own log, where a dropped MCP server is (Claude Code keeps none). */
async function mcpLog(api: TerminalWorld['api'], sessionId: string): Promise<string> {
  const dir = path.join(
    await workspaceOf(api, sessionId),
    '.sessionboxer/opencode/data/opencode/log',
  );
  if (!fs.existsSync(dir)) return 'no OpenCode log';
  const lines = fs
    .readdirSync(dir)
    .flatMap((f) => fs.readFileSync(path.join(dir, f), 'utf8').split('\n'));
  return `OpenCode's log (warnings and errors):\n${lines.slice(-60).join('\n')}`;
}

/** How each real CLI names the registry server's tools. */
const CLIS = [
  { provider: 'claude-code', name: 'Claude Code', tool: (t: string) => `mcp__terminals__${t}` },
  { provider: 'opencode', name: 'OpenCode', tool: (t: string) => `terminals_${t}` },
] as const;

/**
 * The real CLIs, in real boxes, against the model-provider double, use the terminal MCP that
 * Global settings' MCP registry gives them: from their .mcp.json (the daemon's relay), as their
 * session, with the endpoint-auth card in that session's transcript.
 */
describe.each(CLIS)("the real $name uses the registry's terminal MCP", (cli) => {
  let double: ModelProviderDouble;
  let world: TerminalWorld;
  let endpointId: string;

  beforeAll(async () => {
    double = await ModelProviderDouble.start();
    world = await startTerminalWorld({
      SESSIONBOXER_BOXES: 'on',
      SESSIONBOXER_ANTHROPIC_BASE_URL: double.url,
      SESSIONBOXER_TERMINAL_MCP_LEASE_MS: '10000',
    });
    const { api } = world;
    await api.request('PUT', '/api/settings/credentials/anthropicApiKey', {
      value: realKey('Tr9'),
    });
    await api.request('PUT', '/api/settings/mcp-registry/relays/terminals', { given: true });
    const e = await api.request('POST', '/api/terminals/endpoints', {
      name: 'loopback sshd',
      host: '127.0.0.1',
      port: world.sshd.port,
      user: world.sshd.user,
      keyId: world.keyId,
    });
    endpointId = e.body.endpointId;
  }, 60_000);
  afterAll(async () => {
    await world?.stop();
    await double?.close();
    if (world) fs.rmSync(world.api.dataDir, { recursive: true, force: true });
  });

  it('lists the endpoints and asks for a terminal; the card is in its transcript', async () => {
    const { api } = world;
    const id = await readySession(api, cli.provider, `${cli.name} on call`);
    double.play([
      [use(cli.tool('shellwatch_manage_endpoints'), { action: 'list' })],
      [use(cli.tool('shellwatch_create_session'), { endpointId })],
      [say('Asked for a terminal; waiting for a person to allow it.')],
    ]);
    const sent = await api.request('POST', `/api/sessions/${id}/prompts`, {
      text: 'Open a terminal on the loopback sshd',
    });
    expect(sent.status).toBe(202);
    const finished = await turnFinished(api, id, 1, 90_000);
    expect(finished.status).toBe('finished');

    const { events } = await conversation(api, id);
    const calls = events.filter((e: any) => e.type === 'tool_call').map((c: any) => c.name);
    const expected = [
      cli.tool('shellwatch_manage_endpoints'),
      cli.tool('shellwatch_create_session'),
    ];
    // An agent that did not get the server calls its tools `invalid`: say why it did not.
    if (JSON.stringify(calls) !== JSON.stringify(expected)) {
      throw new Error(`calls ${JSON.stringify(calls)}; ${await mcpLog(api, id)}`);
    }
    const results = events.filter((e: any) => e.type === 'tool_result');
    expect(results.map((r: any) => r.error)).toEqual([false, false]);
    expect(results[0].output).toContain('loopback sshd');
    const opened = JSON.parse(results[1].output) as { sessionId: string; status: string };
    expect(opened).toMatchObject({ endpointId, status: 'pending' });

    const markers = async () =>
      (await api.request('GET', `/api/sessions/${id}/transcript?limit=500`)).body.entries
        .map((e: { marker?: { kind: string; link: unknown } }) => e.marker)
        .filter(Boolean);
    const card = await until(
      async () => (await markers()).find((m: any) => m.kind === 'ssh-terminal-requested'),
      'the card in the transcript',
    );
    expect(card.link).toEqual({ sshTerminalId: opened.sessionId });
    const view = ((await api.request('GET', '/api/terminals')).body as any[]).find(
      (t) => t.terminalId === opened.sessionId,
    );
    expect(view).toMatchObject({
      forSession: id,
      requester: `the agent of session “${cli.name} on call”`,
      requestedBy: { kind: 'agent', sessionId: id },
    });
    // The turn is over and its relay process with it: the terminal it asked for closes.
    await until(
      async () =>
        ((await api.request('GET', '/api/terminals')).body as any[]).find(
          (t) => t.terminalId === opened.sessionId,
        )?.status === 'closed',
      'the terminal to close with the turn',
    );
  }, 120_000);
});
