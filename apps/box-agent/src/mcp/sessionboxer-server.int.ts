import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import { e2eTools } from '@sessionboxer/mcp-adapters/e2e';
import { e2eDouble, RUN } from '@sessionboxer/mcp-adapters/e2e/test/recording-e2e-handlers';
import { sessionboxerTools } from '@sessionboxer/mcp-adapters/sessionboxer';
import {
  sessionboxerDouble,
  WHOAMI,
} from '@sessionboxer/mcp-adapters/sessionboxer/test/recording-handlers';
import { createSessionboxerServer, type SessionboxerServerOptions } from './sessionboxer-mcp';
import { deadUrl, startFakeDaemon, type FakeDaemon } from './test/fake-daemon';

const GUIDE = resolve(__dirname, '../../../../docs/GUIDE.md');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A Windows session: its snapshot is refused by the control plane. */
const windowsSession = () =>
  sessionboxerDouble({
    snapshot: () => {
      throw new DomainError(
        ErrorCode.InvalidState,
        'snapshots are not available in Windows and macOS sessions',
      );
    },
  });

let daemon: FakeDaemon;
let e2e: ReturnType<typeof e2eDouble>;
let client: Client;

async function connect(options: Partial<SessionboxerServerOptions> = {}): Promise<Client> {
  const server = createSessionboxerServer({
    daemonUrl: daemon.url,
    guidePath: GUIDE,
    version: 'test',
    ...options,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const connected = new Client({ name: 'test-agent', version: '1' });
  await connected.connect(clientSide);
  return connected;
}

async function call(name: string, args: Record<string, unknown> = {}, on = client) {
  return (await on.callTool({ name, arguments: args })) as CallToolResult;
}

function text(result: CallToolResult): string {
  const [first] = result.content;
  return first.type === 'text' ? first.text : '';
}

beforeEach(async () => {
  e2e = e2eDouble();
  daemon = await startFakeDaemon(windowsSession(), e2e);
  client = await connect();
});
afterEach(async () => {
  await client.close();
  await daemon.close();
});

describe('tools/list', () => {
  it('shows every tool, the four e2e ones last, with title, description, annotations and input schema', async () => {
    const { tools } = await client.listTools();
    const served = [...sessionboxerTools, ...e2eTools];
    const e2eNames = ['e2e_plan', 'e2e_case_start', 'e2e_case_end', 'e2e_finish'];
    expect(tools.slice(-4).map((t) => t.name)).toEqual(e2eNames);
    expect(tools.map((t) => t.name)).toEqual(served.map((t) => t.name));
    for (const listed of tools) {
      const tool = served.find((t) => t.name === listed.name);
      expect(listed.title).toBe(tool?.title);
      expect(listed.description).toBe(tool?.description);
      expect(listed.annotations).toMatchObject({ ...tool?.annotations, title: tool?.title });
    }
    const titleSet = tools.find((t) => t.name === 'title_set');
    expect(titleSet?.inputSchema).toMatchObject({
      required: ['title'],
      properties: { title: { type: 'string', minLength: 1, maxLength: 200 } },
    });
    const read = tools.find((t) => t.name === 'terminal_read');
    expect(read?.inputSchema.properties?.lines).toMatchObject({ default: 100, maximum: 2000 });
  });
});

describe('a call through the daemon', () => {
  it('round-trips: posts { tool, args, callId } and answers the result as JSON text', async () => {
    const result = await call('whoami');
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(text(result))).toEqual(WHOAMI);
    expect(daemon.posts).toEqual([
      { tool: 'whoami', args: {}, callId: expect.stringMatching(UUID) },
    ]);
  });

  it('posts the parsed arguments, with a fresh callId per call', async () => {
    await call('title_set', { title: '  Backend tests  ' });
    await call('terminal_read', { id: 'term-1' });
    expect(daemon.posts.map(({ tool, args }) => ({ tool, args }))).toEqual([
      { tool: 'title_set', args: { title: 'Backend tests' } },
      { tool: 'terminal_read', args: { id: 'term-1', lines: 100 } },
    ]);
    expect(daemon.posts[0].callId).not.toBe(daemon.posts[1].callId);
  });

  it('shows an ok: false answer as a tool error with the reason and its code', async () => {
    const result = await call('snapshot');
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(
      'snapshots are not available in Windows and macOS sessions (INVALID_STATE)',
    );
  });

  it('says so when the daemon is unreachable', async () => {
    const url = await deadUrl();
    const offline = await connect({ daemonUrl: url });
    const result = await call('pr_list', {}, offline);
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(
      new RegExp(`^the box's daemon at ${url} is unreachable: connect ECONNREFUSED`),
    );
    await offline.close();
  });

  it('says so when the daemon answers something that is not a tool answer', async () => {
    daemon.mode = 'html';
    const result = await call('pr_list');
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/answered HTTP 502 with something that is not a tool answer/);
  });

  it('says so when the daemon does not answer in time', async () => {
    daemon.mode = 'silent';
    const impatient = await connect({ daemonTimeoutMs: 200 });
    const result = await call('whoami', {}, impatient);
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(
      `the box's daemon at ${daemon.url} did not answer within 0.2 s (UNAVAILABLE)`,
    );
    await impatient.close();
  });
});

describe('an Auto QA call', () => {
  it("is posted to the daemon's /e2e, not /sessionboxer, and answered as JSON text", async () => {
    const result = await call('e2e_plan', { cases: [' Log in '] });
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(text(result))).toEqual(RUN);
    expect(daemon.e2ePosts).toEqual([
      { tool: 'e2e_plan', args: { cases: ['Log in'] }, callId: expect.stringMatching(UUID) },
    ]);
    expect(daemon.posts).toEqual([]);
    expect(e2e.calls).toEqual([{ tool: 'e2e_plan', args: { cases: ['Log in'] } }]);
  });

  it('refuses a plan with both cases and skip in the box, posting nothing', async () => {
    const both = await call('e2e_plan', { cases: ['a'], skip: 'nothing to test' });
    expect(both.isError).toBe(true);
    expect(text(both)).toMatch(/^e2e_plan: cases and skip were both given/);
    expect(daemon.e2ePosts).toEqual([]);
  });

  it('verify is a sessionboxer tool: posted to /sessionboxer', async () => {
    await call('verify', { brief: 'Check the login form' });
    expect(daemon.posts.map((p) => p.tool)).toEqual(['verify']);
    expect(daemon.e2ePosts).toEqual([]);
  });
});

describe('bad arguments', () => {
  it('out of range: an MCP -32602 error naming the field', async () => {
    const result = await call('title_set', { title: 'x'.repeat(300) });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/-32602/);
    expect(text(result)).toMatch(/title must be at most 200 characters/);
    expect(daemon.posts).toEqual([]);
  });

  it.each([
    [
      'snapshot',
      { bogus: true },
      /bogus is not a parameter of this tool \(it takes no parameters\)/,
    ],
    [
      'title_set',
      { title: 'x', sessionId: 'other' },
      /sessionId is not a parameter .*it takes title/,
    ],
    ['ui_open', { pane: 'terminal', terminal: { command: 'ls', cwd: '/' } }, /terminal\.cwd/],
    ['e2e_plan', { cases: ['a'], bogus: 1 }, /bogus is not a parameter/],
  ])(
    'an unknown argument of %s: refused by name as the desktop tools do, nothing posted',
    async (tool, args, says) => {
      const result = await call(tool, args);
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(/^MCP error -32602: Input validation error: /);
      expect(text(result)).toMatch(says);
      expect([...daemon.posts, ...daemon.e2ePosts]).toEqual([]);
    },
  );

  it('across fields: a tool error naming the tool and the field, nothing posted', async () => {
    const both = await call('pr_attach', { url: 'https://github.com/o/r/pull/1', repo: 'o/r' });
    expect(both.isError).toBe(true);
    expect(text(both)).toMatch(/^pr_attach: url and repo were both given/);
    const pane = await call('ui_open', { pane: 'prs', terminal: { command: 'npm test' } });
    expect(text(pane)).toMatch(/^ui_open: terminal\.command only goes with pane "terminal"/);
    expect(daemon.posts).toEqual([]);
  });
});

describe('docs, answered in the box', () => {
  it('searches the guide without the daemon', async () => {
    const offline = await connect({ daemonUrl: await deadUrl() });
    const result = await call('docs', { query: 'fork a session' }, offline);
    expect(result.isError).toBeFalsy();
    const answer = JSON.parse(text(result));
    expect(answer.sections[0].path).toBe('Sessions › Fork a session');
    await offline.close();
  });

  it('says so when the guide cannot be read', async () => {
    const lost = await connect({ guidePath: '/nonexistent/GUIDE.md' });
    const result = await call('docs', { query: 'snapshots' }, lost);
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(
      /^the Sessionboxer user guide at \/nonexistent\/GUIDE.md cannot be read: ENOENT/,
    );
    await lost.close();
  });
});
