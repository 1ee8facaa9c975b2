import { makeBoxDir, post, startDaemonProcess, type DaemonProcess } from './daemon-process';
import { TestGateway } from './test-gateway';

describe('the box daemon without a gateway', () => {
  const box = makeBoxDir();
  let daemon: DaemonProcess | undefined;
  let gateway: TestGateway | undefined;

  afterEach(async () => {
    await daemon?.stop();
    await gateway?.close();
    daemon = gateway = undefined;
  });
  afterAll(() => box.remove());

  it('connects when the gateway appears, delivering a call made while it was away', async () => {
    daemon = await startDaemonProcess(box);
    expect(await (await fetch(`${daemon.url}/health`)).json()).toEqual({ connected: false });
    const early = post(`${daemon.url}/sessionboxer`, { tool: 'whoami' });
    await new Promise((r) => setTimeout(r, 300));

    gateway = await TestGateway.start(box.socket);
    await gateway.event('hello');
    expect(await early).toEqual({
      status: 200,
      body: { ok: true, result: { tool: 'whoami', args: {} } },
    });
    expect(gateway.calls()).toHaveLength(1);
    expect(await (await fetch(`${daemon.url}/health`)).json()).toEqual({ connected: true });
  });

  it('answers 503 saying the control plane is unreachable when no gateway comes', async () => {
    daemon = await startDaemonProcess(box, { SESSIONBOXER_CALL_WAIT_MS: '300' });
    const started = Date.now();
    const res = await post(`${daemon.url}/sessionboxer`, { tool: 'snapshot' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(res.status).toBe(503);
    expect(res.body.ok).toBe(false);
    expect(res.body.error.code).toBe('UNAVAILABLE');
    expect(res.body.error.message).toMatch(/control plane is unreachable from the box/);
    expect(res.body.error.message).toMatch(/snapshot was not delivered/);
  });

  it('answers 504 when the gateway takes the call but never answers', async () => {
    gateway = await TestGateway.start(box.socket);
    gateway.answer = () => undefined;
    daemon = await startDaemonProcess(box, { SESSIONBOXER_CALL_TIMEOUT_MS: '300' });
    const res = await post(`${daemon.url}/sessionboxer`, { tool: 'session_wait' });
    expect(res.status).toBe(504);
    expect(res.body.error.message).toMatch(/did not answer session_wait within 0.3 s/);
  });
});
