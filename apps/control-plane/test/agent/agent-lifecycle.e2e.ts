import * as fs from 'node:fs';
import { WebSocket } from 'ws';
import { BoxLifecycle } from '../../src/boxes/lifecycle/box-lifecycle.service';
import type { LocalBoxDriver } from '../../src/boxes/driver';
import { BOX_DRIVER } from '../../src/infrastructure/tokens';
import { waitFor, waitForBox } from '../box-kit';
import { startApp, tempDataDir, type RunningApp } from '../harness';
import {
  conversation,
  script,
  transcript,
  turnFinished,
  turnRunning,
  type Entry,
} from './agent-kit';

/** A turn's life around the session's: live transcripts, stop and resume, restarts. */
describe('a session agent through stop, resume and control-plane restarts', () => {
  const dataDir = tempDataDir();
  let api: RunningApp;
  let id: string;
  const drivers: LocalBoxDriver[] = [];

  const restart = async (keepBoxes: boolean) => {
    api.app.get(BoxLifecycle).keepBoxesOnShutdown = keepBoxes;
    await api.close();
    // A box kept by an earlier restart belongs to the driver that started it.
    if (!keepBoxes) for (const driver of drivers) await driver.shutdownAll();
    api = await startApp(dataDir, { SESSIONBOXER_BOXES: 'on' });
    drivers.push(api.app.get<LocalBoxDriver>(BOX_DRIVER));
  };
  const messages = async (turn: number) =>
    (await conversation(api, id)).events
      .filter((e: any) => e.turn === turn && e.type === 'message')
      .map((e: any) => e.text);

  beforeAll(async () => {
    api = await startApp(dataDir, { SESSIONBOXER_BOXES: 'on' });
    drivers.push(api.app.get<LocalBoxDriver>(BOX_DRIVER));
    id = (await api.request('POST', '/api/sessions', { title: 'Lives', provider: 'scripted' })).body
      .id;
    await waitForBox(api, id);
  });
  afterAll(async () => {
    await api?.close();
    for (const driver of drivers) await driver.shutdownAll();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('streams the transcript live to a browser watching the session, in order, without gaps', async () => {
    const known = await transcript(api, id);
    const ui = new WebSocket(api.url.replace('http', 'ws') + '/api/ui', {
      headers: api.authHeaders,
    });
    const live: Entry[] = [];
    ui.on('message', (m) => {
      const frame = JSON.parse((m as Buffer).toString());
      if (frame.event === 'transcript') live.push(...frame.data.entries);
    });
    await new Promise((r) => ui.once('open', r));
    const after = known.at(-1)?.position ?? -1;
    ui.send(JSON.stringify({ event: 'watch', data: { sessionId: id, after } }));
    await api.request('POST', `/api/sessions/${id}/prompts`, {
      text: script({ say: 'one' }, { call: 'sessionboxer.whoami' }, { say: 'two' }),
    });
    await turnFinished(api, id, 1);
    const whole = await transcript(api, id);
    await waitFor('the live feed to catch up', () => live.length >= whole.length - known.length);
    expect(live).toEqual(whole.slice(known.length));
    expect(live.map((e) => e.event?.type ?? e.marker?.kind)).toContain('turn_finished');
    ui.close();
  });

  it('interrupts the turn when the session stops, keeps prompts sent meanwhile, runs them on resume', async () => {
    await api.request('POST', `/api/sessions/${id}/prompts`, { text: script({ sleep: 60 }) });
    await turnRunning(api, id, 2);
    expect((await api.request('POST', `/api/sessions/${id}/stop`, {})).body.status).toBe('stopped');
    expect((await turnFinished(api, id, 2)).status).toBe('interrupted');
    const queued = await api.request('POST', `/api/sessions/${id}/prompts`, {
      text: script({ say: 'after the resume' }),
    });
    expect(queued.body).toMatchObject({ status: 'queued', position: 1 });
    await new Promise((r) => setTimeout(r, 300));
    expect((await conversation(api, id)).conversation).toMatchObject({
      currentTurn: null,
      queued: 1,
    });
    await api.request('POST', `/api/sessions/${id}/resume`);
    await turnFinished(api, id, 3);
    expect(await messages(3)).toEqual(['after the resume']);
  });

  it('finishes a turn across a control-plane restart that kept the box, recording each output once', async () => {
    await api.request('POST', `/api/sessions/${id}/prompts`, {
      text: script({ say: 'before' }, { sleep: 4 }, { say: 'after' }),
    });
    await waitFor('the first message', async () => (await messages(4)).length === 1);
    await restart(true);
    await turnFinished(api, id, 4, 30_000);
    expect(await messages(4)).toEqual(['before', 'after']);
  });

  it('fails a turn whose box died with the control plane: agent_lost, and the next prompt runs', async () => {
    await api.request('POST', `/api/sessions/${id}/prompts`, { text: script({ sleep: 60 }) });
    await turnRunning(api, id, 5);
    await restart(false);
    const ended = await turnFinished(api, id, 5, 30_000);
    expect(ended.status).toBe('failed');
    const error = (await conversation(api, id)).events.find(
      (e: any) => e.turn === 5 && e.type === 'error',
    );
    expect(error.code).toBe('agent_lost');
    expect(error.message).toMatch(/restarted while the turn ran/);
    await waitForBox(api, id);
    await api.request('POST', `/api/sessions/${id}/prompts`, { text: script({ say: 'back' }) });
    await turnFinished(api, id, 6);
    expect(await messages(6)).toEqual(['back']);
  });
});
