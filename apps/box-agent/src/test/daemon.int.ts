import * as fs from 'node:fs';
import * as path from 'node:path';
import { DAEMON_VERSION } from '../version';
import {
  makeBoxDir,
  post,
  startDaemonProcess,
  waitUntil,
  type DaemonProcess,
} from './daemon-process';
import { echo, TestGateway } from './test-gateway';

describe('the box daemon, as a child process, with a gateway on its Unix socket', () => {
  const box = makeBoxDir();
  let gateway: TestGateway;
  let daemon: DaemonProcess;

  beforeAll(async () => {
    gateway = await TestGateway.start(box.socket);
    daemon = await startDaemonProcess(box, { SESSIONBOXER_GUIDE_PATH: '/srv/GUIDE.md' });
    await gateway.event('hello');
  });
  afterEach(() => (gateway.answer = echo));
  afterAll(async () => {
    await daemon?.stop();
    await gateway?.close();
    box.remove();
  });

  it('says hello with its version and no terminals when it connects', () => {
    const hello = gateway.frames.find((f) => f.event === 'hello');
    expect(hello?.data).toEqual({ daemonVersion: DAEMON_VERSION, terminals: [], turns: [] });
    expect(gateway.frames[0].event).toBe('hello');
  });

  it('reports the connection on GET /health', async () => {
    const res = await fetch(`${daemon.url}/health`);
    expect(await res.json()).toEqual({ connected: true });
  });

  it('forwards POST /sessionboxer as a call frame and answers with the result', async () => {
    const since = gateway.frames.length;
    const res = await post(`${daemon.url}/sessionboxer`, { tool: 'title_set', args: { t: 'x' } });
    expect(res).toEqual({
      status: 200,
      body: { ok: true, result: { tool: 'title_set', args: { t: 'x' } } },
    });
    const call = await gateway.event('call', since);
    expect(call.data).toEqual({
      callId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      route: 'sessionboxer',
      tool: 'title_set',
      args: { t: 'x' },
    });
  });

  it('routes POST /e2e as e2e, with args defaulting to {}', async () => {
    const since = gateway.frames.length;
    const res = await post(`${daemon.url}/e2e`, { tool: 'e2e_plan' });
    expect(res.body).toEqual({ ok: true, result: { tool: 'e2e_plan', args: {} } });
    expect((await gateway.event('call', since)).data).toMatchObject({ route: 'e2e', args: {} });
  });

  it("passes a tool's own error through as HTTP 200, ok false", async () => {
    const error = { code: 'LIMIT_REACHED', message: 'at most 3 alive sessions' };
    gateway.answer = (call) => ({ callId: call.callId, ok: false, error });
    const res = await post(`${daemon.url}/sessionboxer`, { tool: 'session_create', args: {} });
    expect(res).toEqual({ status: 200, body: { ok: false, error } });
  });

  it("keeps the caller's callId, and a retry with it joins the call instead of repeating it", async () => {
    const held: Array<() => void> = [];
    gateway.answer = (call, socket) => {
      held.push(() => socket.send(JSON.stringify({ event: 'result', data: echo(call, socket) })));
      return undefined;
    };
    const callId = 'caller-chosen-id-1';
    const first = post(`${daemon.url}/sessionboxer`, { tool: 'notify', args: { n: 1 }, callId });
    await waitUntil(() => held.length === 1);
    const retry = post(`${daemon.url}/sessionboxer`, { tool: 'notify', args: { n: 1 }, callId });
    await new Promise((r) => setTimeout(r, 100));
    held[0]();
    expect((await first).body.ok).toBe(true);
    expect((await retry).body.ok).toBe(true);
    // Once answered, a late retry gets the remembered answer without a new frame.
    const late = await post(`${daemon.url}/sessionboxer`, { tool: 'notify', callId });
    expect(late.body).toEqual((await first).body);
    expect(gateway.calls().filter((f) => f.data.callId === callId)).toHaveLength(1);
    const clash = await post(`${daemon.url}/sessionboxer`, { tool: 'snapshot', callId });
    expect(clash.status).toBe(409);
  });

  it('resends an unanswered call with the same callId after the gateway drops it, answering once', async () => {
    const since = gateway.frames.length;
    const connectionsBefore = gateway.connections;
    let seen = 0;
    gateway.answer = (call, socket) => {
      if (++seen === 1) {
        socket.terminate();
        return undefined;
      }
      // Answered twice on purpose: the duplicate must be ignored.
      socket.send(JSON.stringify({ event: 'result', data: echo(call, socket) }));
      return echo(call, socket);
    };
    const res = await post(`${daemon.url}/sessionboxer`, { tool: 'snapshot', args: {} });
    expect(res).toEqual({
      status: 200,
      body: { ok: true, result: { tool: 'snapshot', args: {} } },
    });
    const calls = gateway.frames.slice(since).filter((f) => f.event === 'call');
    expect(calls).toHaveLength(2);
    expect(calls[1].data.callId).toBe(calls[0].data.callId);
    expect(calls[1].connection).toBe(connectionsBefore + 1);
    // On the new connection hello comes first, then the resent call.
    const onNew = gateway.frames.filter((f) => f.connection === connectionsBefore + 1);
    expect(onNew.map((f) => f.event).slice(0, 2)).toEqual(['hello', 'call']);
  });

  it('refuses bad requests with a clear message and keeps running', async () => {
    const url = `${daemon.url}/sessionboxer`;
    const cases: Array<[unknown, number, RegExp]> = [
      ['{not json', 400, /not JSON/],
      [{ args: {} }, 400, /tool: Required/],
      [{ tool: 'x', args: [1] }, 400, /args: Expected object, received array/],
      [{ tool: 'x', arguments: {} }, 400, /Unrecognized key.*arguments/],
      [{ tool: '' }, 400, /tool:/],
      [{ tool: 'x', callId: 'short' }, 400, /callId/],
      ['x'.repeat(1024 * 1024 + 1), 413, /over 1048576 bytes/],
      [{ tool: 'x', args: { s: 'x'.repeat(1024 * 1024 - 30) } }, 413, /once framed/],
    ];
    for (const [body, status, message] of cases) {
      const res = await post(url, body);
      expect({ status: res.status, code: res.body.ok }).toEqual({ status, code: false });
      expect(res.body.error.message).toMatch(message);
    }
    const browser = await post(url, { tool: 'x' }, { origin: 'http://127.0.0.1:3000' });
    expect(browser.status).toBe(403);
    expect((await fetch(url)).status).toBe(405);
    const missing = await fetch(`${daemon.url}/nope`, { method: 'POST' });
    expect(missing.status).toBe(404);
    expect((await post(url, { tool: 'whoami' })).body.ok).toBe(true);
  });

  it('shrugs off malformed frames from the gateway', async () => {
    gateway.sendRaw('not json');
    gateway.sendRaw(Buffer.from([1, 2, 3]));
    gateway.push('session', 5);
    gateway.push('terminal.open', { terminalId: 7 });
    gateway.push('result', { callId: 'nobody-waits-for-this', ok: true, result: 1 });
    gateway.push('mystery', {});
    await new Promise((r) => setTimeout(r, 100));
    expect((await post(`${daemon.url}/sessionboxer`, { tool: 'whoami' })).body.ok).toBe(true);
    expect(daemon.child.exitCode).toBeNull();
  });

  it('writes .mcp.json for Claude Code, pointing both servers at its own port', () => {
    const mcp = JSON.parse(fs.readFileSync(path.join(box.workspace, '.mcp.json'), 'utf8'));
    const root = path.join(box.dir, 'mcp');
    const env = { SESSIONBOXER_DAEMON_URL: daemon.url };
    expect(mcp.mcpServers.sessionboxer).toEqual({
      command: process.execPath,
      args: [path.join(root, 'sessionboxer-server.js')],
      env: { ...env, SESSIONBOXER_GUIDE_PATH: '/srv/GUIDE.md' },
    });
    expect(mcp.mcpServers.desktop).toMatchObject({
      command: process.execPath,
      args: [path.join(root, 'desktop-server.js')],
      env,
    });
    expect(daemon.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('keeps .sessionboxer/session.json equal to the last push, replaced atomically', async () => {
    const file = path.join(box.workspace, '.sessionboxer', 'session.json');
    gateway.push('session', { id: 's1', title: 'First', snapshotCount: 0 });
    await waitUntil(() => fs.existsSync(file));
    expect(fs.readFileSync(file, 'utf8')).toBe(
      `${JSON.stringify({ id: 's1', title: 'First', snapshotCount: 0 }, null, 2)}\n`,
    );
    expect(fs.statSync(file).mode & 0o777).toBe(0o644);

    // A reader polling during a burst of pushes only ever sees whole versions.
    const big = 'x'.repeat(200_000);
    let reads = 0;
    let last = 0;
    for (let n = 1; n <= 40; n++) gateway.push('session', { id: 's1', n, big });
    await waitUntil(() => {
      const seen = JSON.parse(fs.readFileSync(file, 'utf8'));
      reads++;
      expect(seen.n ?? 0).toBeGreaterThanOrEqual(last);
      last = seen.n ?? 0;
      return seen.n === 40;
    });
    expect(reads).toBeGreaterThan(0);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['session.json']);
  });
});
