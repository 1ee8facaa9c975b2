import * as fs from 'node:fs';
import * as path from 'node:path';
import { script, turnFinished } from '../agent/agent-kit';
import { waitFor, waitForBox } from '../box-kit';
import { startApp, type RunningApp } from '../harness';
import { startPushServiceDouble, type PushServiceDouble } from './push-service-double';

/**
 * Web Push of new inbox items to enrolled devices, against a push-service double that checks
 * VAPID and decrypts the aes128gcm body with the key the test made as a browser would.
 */
describe('web push of inbox items', () => {
  let api: RunningApp;
  let push: PushServiceDouble;
  let sessionId: string;

  beforeAll(async () => {
    push = await startPushServiceDouble();
    api = await startApp(undefined, {
      SESSIONBOXER_BOXES: 'on',
      SESSIONBOXER_PUSH_ALLOW_LOCAL_HTTP: 'on',
    });
    const created = await api.request('POST', '/api/sessions', {
      title: 'Pushy',
      provider: 'scripted',
    });
    sessionId = created.body.id;
    await waitForBox(api, sessionId);
  }, 60_000);

  afterAll(async () => {
    await api?.close();
    await push?.close();
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('keeps its VAPID key private and refuses a subscription that is not https', async () => {
    const key = (await api.request('GET', '/api/push/public-key')).body.publicKey;
    expect(Buffer.from(key, 'base64url')).toHaveLength(65);
    const file = path.join(api.dataDir, 'secrets', 'vapid.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect((await api.request('GET', '/api/push/public-key')).body.publicKey).toBe(key);
    const keys = push.device('x').subscription.keys;
    const bad = await api.request('POST', '/api/push/subscriptions', {
      endpoint: 'http://example.com/push',
      keys,
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/endpoint must be an https URL/);
    const noKeys = await api.request('POST', '/api/push/subscriptions', {
      endpoint: 'https://push.example/x',
    });
    expect(noKeys.status).toBe(400);
    expect(JSON.stringify(noKeys.body)).toMatch(/keys.p256dh/);
  });

  it('pushes a notify to an enrolled device; a 410 removes the subscription', async () => {
    const phone = push.device('phone');
    const gone = push.device('old-laptop');
    gone.answer = 410;
    for (const d of [phone, gone]) {
      const res = await api.request('POST', '/api/push/subscriptions', d.subscription);
      expect(res.status).toBe(201);
    }
    const text = 'The deploy needs your OK';
    const arrived = push.nextPush();
    const sent = await api.request('POST', `/api/sessions/${sessionId}/prompts`, {
      text: script({ call: 'sessionboxer.notify', args: { text } }),
    });
    expect(sent.status).toBe(202);
    await waitFor(
      'the item in the inbox',
      async () => (await api.request('GET', '/api/inbox')).body.items.length > 0,
      30_000,
    );
    await arrived;
    await waitFor('the phone’s push', () => phone.received.length > 0, 30_000);
    expect(push.refusals).toEqual([]);
    const payload = JSON.parse(phone.received[0]);
    expect(payload).toMatchObject({ kind: 'notification', title: 'Pushy', body: text });
    expect(payload.url).toBe(`/sessions/${sessionId}`);
    expect(gone.received).toEqual([]);
    const stored = path.join(api.dataDir, 'secrets', 'push-subscriptions.json');
    await waitFor(
      'the 410 device gone',
      () => !fs.readFileSync(stored, 'utf8').includes('old-laptop'),
    );
    expect(fs.readFileSync(stored, 'utf8')).toContain('phone');
    expect(fs.statSync(stored).mode & 0o777).toBe(0o600);
    await turnFinished(api, sessionId, 1);
    const del = await api.request('DELETE', '/api/push/subscriptions', {
      endpoint: phone.subscription.endpoint,
    });
    expect(del.status).toBe(204);
    expect(fs.readFileSync(stored, 'utf8')).not.toContain('phone');
  }, 60_000);
});
