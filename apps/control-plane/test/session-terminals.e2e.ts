import * as fs from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import WebSocket from 'ws';
import { call, mcpClientInBox, waitFor, waitForBox } from './box-kit';
import { startApp, type RunningApp } from './harness';

describe("a session's Terminals over the admin API and the /api/ui socket, with a real box", () => {
  let api: RunningApp;
  let id: string;
  let client: Client;

  beforeAll(async () => {
    api = await startApp(undefined, { SESSIONBOXER_BOXES: 'on' });
    id = (await api.request('POST', '/api/sessions', { title: 'Terminals' })).body.id;
    await waitForBox(api, id);
    client = await mcpClientInBox(api, id);
  });
  afterAll(async () => {
    await client?.close();
    await api?.close();
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('lists the box’s Terminals, reads their output, pushes them in the session frame, and says 409 once the box is frozen', async () => {
    const ui = new WebSocket(api.url.replace('http', 'ws') + '/api/ui', {
      headers: api.authHeaders,
    });
    const frames: { event: string; data: any }[] = [];
    ui.on('message', (m) => frames.push(JSON.parse((m as Buffer).toString())));
    await new Promise((r) => ui.once('open', r));
    ui.send(JSON.stringify({ event: 'watch', data: { sessionId: id } }));
    await waitFor('the first session frame', () => frames.find((f) => f.event === 'session'));

    const opened = await call(client, 'ui_open', {
      pane: 'terminal',
      terminal: { command: 'echo "terminal says hi"; exit 4' },
    });
    const done = await waitFor('the terminal to exit', async () => {
      const list = (await api.request('GET', `/api/sessions/${id}/terminals`)).body;
      return list.find((t: any) => t.id === opened.terminalId && t.exitCode !== null);
    });
    expect(done).toEqual({
      id: opened.terminalId,
      createdAt: expect.any(String),
      exitCode: 4,
      command: ['/bin/bash', '-lc', 'echo "terminal says hi"; exit 4'],
    });
    const read = await api.request('GET', `/api/sessions/${id}/terminals/${opened.terminalId}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ id: opened.terminalId, text: expect.any(String), exitCode: 4 });
    expect(read.body.text).toMatch(/terminal says hi/);

    const terminals = (await api.request('GET', `/api/sessions/${id}/terminals`)).body;
    await waitFor('a session frame with the exited terminal', () =>
      frames.some(
        (f) =>
          f.event === 'session' && JSON.stringify(f.data.terminals) === JSON.stringify(terminals),
      ),
    );

    expect((await api.request('POST', `/api/sessions/${id}/stop`, {})).status).toBe(200);
    const frozen = await api.request('GET', `/api/sessions/${id}/terminals/${opened.terminalId}`);
    expect(frozen.status).toBe(409);
    expect(frozen.body).toMatchObject({ error: 'INVALID_STATE' });
    expect(frozen.body.message).toMatch(/not running \(frozen\)/);
    // The list is the session's history: it stays readable while the box is frozen.
    expect((await api.request('GET', `/api/sessions/${id}/terminals`)).body).toEqual(terminals);
    ui.close();
  });
});
