import * as fs from 'node:fs';
import * as path from 'node:path';
import { say, use } from '../doubles/model-provider/model-provider-double';
import { conversation, shape, transcript, turnFinished } from './agent-kit';
import { boxEnvirons, workspaceOf } from './box-secrets-kit';
import {
  allEvents,
  carriesToolResult,
  expectKeyOnlyAtTheDouble,
  LIST_BOX_ENVIRONS,
  readySession,
  realKey,
  startRealAgentWorld,
  type RealAgentWorld,
} from './real-agent-kit';

/** What differs between the two real CLIs in the same turn. */
interface RealCli {
  provider: 'claude-code' | 'opencode';
  name: string;
  keyTag: string;
  /** The CLI's own shell tool and the sessionboxer title tool, as the CLI names them. */
  bash: string;
  titleTool: string;
  /** The desktop server's screenshot tool, as the CLI names it. */
  screenshotTool: string;
  /** Where the rename's marker falls among the CLI's entries, which each CLI reports its way. */
  expectMarkerOrder(entries: string[]): void;
}

const CLIS: RealCli[] = [
  {
    provider: 'claude-code',
    name: 'Claude Code',
    keyTag: 'Cc7',
    bash: 'Bash',
    titleTool: 'mcp__sessionboxer__title_set',
    screenshotTool: 'mcp__desktop__screenshot',
    expectMarkerOrder: (entries) => {
      const marker = entries.indexOf('marker:session-renamed');
      expect(marker).toBeGreaterThan(entries.indexOf('tool_call#1:mcp__sessionboxer__title_set'));
      expect(marker).toBeLessThan(entries.lastIndexOf('tool_result#1'));
    },
  },
  {
    provider: 'opencode',
    name: 'OpenCode',
    keyTag: 'Oc7',
    bash: 'bash',
    titleTool: 'sessionboxer_title_set',
    screenshotTool: 'desktop_screenshot',
    // OpenCode reports a call once it has finished: the rename's marker comes before both.
    expectMarkerOrder: (entries) =>
      expect(entries.indexOf('marker:session-renamed')).toBeLessThan(
        entries.indexOf('tool_call#1:sessionboxer_title_set'),
      ),
  },
];

/**
 * The real CLIs (Claude Code from node_modules/.bin, OpenCode from its platform package, both
 * seen read-only in the box) each run a turn in a real bubblewrap box against the
 * model-provider double, reached only through the box's edge and the control plane's Anthropic
 * relay, which adds the real key. (OpenCode's openai provider speaks the Responses API, which
 * the double does not: its anthropic one is used; its title request is a side request.)
 */
describe.each(CLIS)('a turn of the real $name in a box', (cli) => {
  const KEY = realKey(cli.keyTag);
  const title = `Named by ${cli.name}`;
  let world: RealAgentWorld;
  let id: string;

  beforeAll(async () => {
    world = await startRealAgentWorld(KEY);
    id = await readySession(world.api, cli.provider, `${cli.name} at work`);
  });
  afterAll(() => world?.close());

  it(`calls ${cli.titleTool} and answers; the key reaches the double only`, async () => {
    const { api, double } = world;
    double.play([
      [
        say('Reading what my box holds, then naming the session.'),
        use(cli.bash, { command: LIST_BOX_ENVIRONS, description: 'List every environment' }),
      ],
      [use(cli.titleTool, { title })],
      [say('Done: the session is named.')],
    ]);
    const sent = await api.request('POST', `/api/sessions/${id}/prompts`, {
      text: 'Name this session',
    });
    expect(sent.status).toBe(202);
    // While the CLI runs (its shell result has come back): what the box's processes hold.
    await double.next((r) => r.kind === 'main' && carriesToolResult(r.body));
    const environs = await boxEnvirons(api, id);

    const finished = await turnFinished(api, id, 1, 90_000);
    expect(finished.status).toBe('finished');
    const { events } = await conversation(api, id);
    const calls = events.filter((e: any) => e.type === 'tool_call');
    expect(calls.map((c: any) => c.name)).toEqual([cli.bash, cli.titleTool]);
    const results = events.filter((e: any) => e.type === 'tool_result');
    expect(results.map((r: any) => r.error)).toEqual([false, false]);
    expect(JSON.parse(results[1].output)).toMatchObject({ title });
    expect(events.filter((e: any) => e.type === 'message').map((m: any) => m.text)).toEqual([
      'Reading what my box holds, then naming the session.',
      'Done: the session is named.',
    ]);

    expect((await api.request('GET', `/api/sessions/${id}`)).body.title).toBe(title);
    const all = await allEvents(api);
    const titled = all.filter((e) => e.type === 'SessionTitleSet');
    // It called nothing but its model, through the relay: no connection went to the proxy.
    const egress = all.filter((e) => e.type === 'EgressRefused' || e.type === 'EgressAllowed');
    expect(egress.map((e) => e.data)).toEqual([]);
    expect(titled.map((e) => e.data)).toEqual([expect.objectContaining({ sessionId: id, title })]);
    cli.expectMarkerOrder(shape(await transcript(api, id)));

    // The CLI's shell tool listed its own environment too: the placeholder, never the key.
    await expectKeyOnlyAtTheDouble(world, id, KEY, `${environs}\n${results[0].output}`);
    expect(results[0].output).toContain('ANTHROPIC_API_KEY=sessionboxer-placeholder');
    // Its turn waits up to 90 s: OpenCode on a loaded machine takes longer than jest's 30.
  }, 120_000);

  it(`shows the box desktop's screenshot from ${cli.screenshotTool} as a saved image`, async () => {
    const { api, double } = world;
    // A session of its own: the double answers by how many answers the conversation holds.
    const shotId = await readySession(api, cli.provider, `${cli.name} looks`);
    double.play([[use(cli.screenshotTool, {})], [say('I see the desktop.')]]);
    const sent = await api.request('POST', `/api/sessions/${shotId}/prompts`, { text: 'Look' });
    expect(sent.status).toBe(202);
    expect((await turnFinished(api, shotId, 1, 90_000)).status).toBe('finished');
    const { events } = await conversation(api, shotId);
    const shot = events.filter((e: any) => e.type === 'tool_result');
    expect(shot.map((r: any) => r.error)).toEqual([false]);
    // The result names the saved file the web UI shows inline, never the base64 itself.
    const line = /^\[image \/workspace\/(\.sessionboxer\/images\/[0-9a-f]{16}\.png)\]$/m;
    const saved = line.exec(shot[0].output);
    expect(saved).not.toBeNull();
    expect(shot[0].output).not.toContain('iVBOR');
    const png = fs.readFileSync(path.join(await workspaceOf(api, shotId), saved![1]));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
  }, 120_000);
});
