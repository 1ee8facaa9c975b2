import * as fs from 'node:fs';
import * as path from 'node:path';
import WebSocket from 'ws';
import type { LocalBoxDriver } from '../src/boxes/driver';
import { boxPaths } from '../src/boxes/lifecycle/box-paths';
import { BOX_DRIVER } from '../src/infrastructure/tokens';
import { waitForBox } from './box-kit';
import { startApp, type RunningApp } from './harness';

/** Runs a small node program inside the box; resolves with its stdout. */
function inBox(api: RunningApp, sessionId: string, program: string): Promise<string> {
  const driver = api.app.get<LocalBoxDriver>(BOX_DRIVER);
  const child = driver.exec(sessionId, ['/usr/bin/node', '-e', program]);
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.on('exit', () => resolve(out.trim())));
}

describe('what a box can reach', () => {
  let api: RunningApp;
  let a: string;
  let b: string;

  beforeAll(async () => {
    api = await startApp(undefined, { SESSIONBOXER_BOXES: 'on' });
    a = (await api.request('POST', '/api/sessions', { title: 'Box A' })).body.id;
    b = (await api.request('POST', '/api/sessions', { title: 'Box B' })).body.id;
    await waitForBox(api, a);
    await waitForBox(api, b);
  });
  afterAll(async () => {
    await api.close();
    fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it("cannot reach the control plane's HTTP API", async () => {
    const port = new URL(api.url).port;
    const out = await inBox(
      api,
      a,
      `fetch('http://127.0.0.1:${port}/api/health').then(r => console.log('REACHED', r.status), e => console.log('REFUSED', e.cause?.code ?? e.message))`,
    );
    expect(out).toMatch(/^REFUSED/);
    expect((await api.request('GET', '/api/health')).status).toBe(200);
  });

  it("sees neither another box's workspace nor the host's files, and cannot write the system", async () => {
    fs.writeFileSync(path.join(boxPaths(api.dataDir, b).workspace, 'secret-of-b.txt'), 'b');
    const program = `const fs = require('fs');
      const seen = (p) => { try { fs.statSync(p); return 'yes'; } catch { return 'no'; } };
      let sys = 'no'; try { fs.writeFileSync('/usr/sb-probe', 'x'); sys = 'yes'; } catch {}
      console.log(JSON.stringify({ b: seen(${JSON.stringify(boxPaths(api.dataDir, b).workspace)}), bInBoxes: seen('/workspace/../boxes'),
        data: seen(${JSON.stringify(api.dataDir)}), root: seen('/root'), work: seen('/work'), usrWrite: sys,
        own: fs.readdirSync('/workspace').includes('.mcp.json') }));`;
    const seen = JSON.parse(await inBox(api, a, program));
    expect(seen).toEqual({
      b: 'no',
      bInBoxes: 'no',
      data: 'no',
      root: 'no',
      work: 'no',
      usrWrite: 'no',
      own: true,
    });
  });

  it("a frame on box A's socket acts on session A only, whatever it names", async () => {
    // Frozen, A's daemon cannot reconnect and take its socket back during the test.
    await api.request('POST', `/api/sessions/${a}/stop`, {});
    const socket = boxPaths(api.dataDir, a).socket;
    const ws = new WebSocket(`ws+unix://${socket}:/box`);
    await new Promise((r) => ws.once('open', r));
    const answer = new Promise<any>((resolve) =>
      ws.on('message', (m) => {
        const frame = JSON.parse((m as Buffer).toString());
        if (frame.event === 'result') resolve(frame.data);
      }),
    );
    ws.send(
      JSON.stringify({
        event: 'call',
        data: {
          callId: 'forged-call-0001',
          route: 'sessionboxer',
          tool: 'title_set',
          args: { title: 'Hijacked', sessionId: b },
        },
      }),
    );
    const result = await answer;
    expect(result.ok).toBe(false);
    expect(result.error.message).toMatch(/sessionId/);
    expect((await api.request('GET', `/api/sessions/${b}`)).body.title).toBe('Box B');
    expect((await api.request('GET', `/api/sessions/${a}`)).body.title).toBe('Box A');
    ws.close();
  });
});
