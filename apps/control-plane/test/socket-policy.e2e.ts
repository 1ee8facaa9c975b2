import * as fs from 'node:fs';
import * as path from 'node:path';
import { WebSocket } from 'ws';
import { BoxSockets } from '../src/boxes/channel/box-sockets';
import { startApp, type RunningApp } from './harness';

type Frame = { event: string; data: any };

/** A socket that keeps every frame it receives. */
async function connect(url: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(url, { headers });
  const frames: Frame[] = [];
  ws.on('message', (m) => frames.push(JSON.parse((m as Buffer).toString()) as Frame));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const next = async (event: string, n: number): Promise<Frame> => {
    for (let i = 0; i < 200; i++) {
      const found = frames.filter((f) => f.event === event)[n - 1];
      if (found) return found;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`no ${event} frame #${n}; got ${JSON.stringify(frames).slice(0, 500)}`);
  };
  return { ws, frames, next };
}

const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

/** Issue 12, item 2: the body policy holds for the web UI's frames and the boxes' frames. */
describe('socket frames under the JSON policy', () => {
  let api: RunningApp;
  let id: string;
  beforeAll(async () => {
    api = await startApp();
    id = (await api.request('POST', '/api/sessions', { title: 'Frames' })).body.id as string;
  });
  afterAll(async () => {
    await api?.close();
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('answers a too deep, too large or ill-formed UI frame with an error that says which', async () => {
    const ui = await connect(`${api.url.replace('http', 'ws')}/api/ui`, api.authHeaders);
    ui.ws.send(`{"event":"watch","data":{"sessionId":null,"x":${deep(1500)}}}`);
    expect((await ui.next('error', 1)).data).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.stringMatching(/more than 64 levels deep \(in data\)/),
    });
    ui.ws.send(JSON.stringify({ event: 'watch', data: { pad: 'x'.repeat(1_200_000) } }));
    expect((await ui.next('error', 2)).data.message).toMatch(/larger than the limit of 1048576/);
    ui.ws.send('{"event":"watch","data":{"sessionId":"\\ud800"}}');
    expect((await ui.next('error', 3)).data).toMatchObject({
      message: expect.stringMatching(/data\.sessionId must be well-formed Unicode/),
      field: 'data.sessionId',
    });
    expect(ui.frames.filter((f) => f.event === 'watching')).toHaveLength(0);
    // The socket is still open and works.
    ui.ws.send(JSON.stringify({ event: 'watch', data: { sessionId: id } }));
    expect((await ui.next('watching', 1)).data.sessionId).toBe(id);
    ui.ws.close();
  });

  it("refuses a too deep box frame with an error frame; the gateway's handler never sees it", async () => {
    const socketPath = path.join(api.dataDir, 'test-box.sock');
    await api.app.get(BoxSockets).listen(id, socketPath);
    const box = await connect(`ws+unix://${socketPath}:/box`);
    const call = { callId: 'call-0001', route: 'sessionboxer', tool: 'whoami', args: {} };
    box.ws.send(`{"event":"call","data":${JSON.stringify(call).slice(0, -1)},"x":${deep(1500)}}}`);
    expect((await box.next('error', 1)).data).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.stringMatching(/more than 64 levels deep/),
    });
    box.ws.send('{"event":"call","data":{"callId":"\\udfff"}}');
    expect((await box.next('error', 2)).data.message).toMatch(/well-formed Unicode/);
    box.ws.send('{"event":"nonsense","data":{}}');
    expect((await box.next('error', 3)).data.message).toMatch(/unknown event "nonsense"/);
    box.ws.send('not json');
    expect((await box.next('error', 4)).data.message).toMatch(/JSON \{event, data\}/);
    // A little over the limit: answered, not cut off (ws itself closes only past twice it).
    box.ws.send(JSON.stringify({ event: 'call', data: { pad: 'x'.repeat(1_200_000) } }));
    expect((await box.next('error', 5)).data.message).toMatch(/larger than the limit of 1048576/);
    await new Promise((r) => setTimeout(r, 200));
    expect(box.frames.filter((f) => f.event === 'result')).toHaveLength(0);
    // The same call within the policy reaches the gateway and is answered.
    box.ws.send(JSON.stringify({ event: 'call', data: call }));
    expect((await box.next('result', 1)).data).toMatchObject({ callId: 'call-0001' });
    box.ws.close();
  });
});
