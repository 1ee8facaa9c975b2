import * as fs from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { BoxLifecycle } from '../src/boxes/lifecycle/box-lifecycle.service';
import type { LocalBoxDriver } from '../src/boxes/driver';
import { BOX_DRIVER } from '../src/infrastructure/tokens';
import { call, mcpClientInBox, waitForBox } from './box-kit';
import { startApp, tempDataDir, type RunningApp } from './harness';

describe('the daemon across a control-plane restart', () => {
  const dataDir = tempDataDir();
  let api: RunningApp;
  let firstDriver: LocalBoxDriver;
  let client: Client;
  let sessionId: string;

  beforeAll(async () => {
    api = await startApp(dataDir, { SESSIONBOXER_BOXES: 'on' });
    firstDriver = api.app.get<LocalBoxDriver>(BOX_DRIVER);
    sessionId = (await api.request('POST', '/api/sessions', { title: 'Survivor' })).body.id;
    await waitForBox(api, sessionId);
    client = await mcpClientInBox(api, sessionId);
  });
  afterAll(async () => {
    await client?.close();
    await api?.close();
    await firstDriver?.shutdownAll();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('reconnects, and a call in flight during the restart takes effect exactly once', async () => {
    for (let round = 1; round <= 3; round++) {
      // notify is not idempotent by nature: applied twice, it would leave two notifications.
      const text = `Round ${round} done`;
      api.app.get(BoxLifecycle).keepBoxesOnShutdown = true;
      const inFlight = call(client, 'notify', { text });
      // Round 1 closes at once (the call may not have reached the gateway yet); later rounds
      // let it get further, so both "not yet applied" and "applied, answer lost" are covered.
      await new Promise((r) => setTimeout(r, (round - 1) * 3));
      await api.close();
      api = await startApp(dataDir, { SESSIONBOXER_BOXES: 'on' });
      expect(await inFlight).toEqual({ ok: true });
      await waitForBox(api, sessionId);
      const events = (
        await api.request('GET', `/api/streams/session-${sessionId}/events?limit=1000`)
      ).body.events;
      const sent = events.filter(
        (e: { type: string; data: { text: string } }) =>
          e.type === 'NotificationSent' && e.data.text === text,
      );
      expect(sent).toHaveLength(1);
    }
    const bell = (await api.request('GET', `/api/sessions/${sessionId}/notifications`)).body
      .notifications;
    expect(bell.map((n: { text: string }) => n.text)).toEqual([
      'Round 1 done',
      'Round 2 done',
      'Round 3 done',
    ]);
  });
});
