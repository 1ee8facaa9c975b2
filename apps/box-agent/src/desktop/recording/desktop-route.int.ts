import * as fs from 'node:fs';
import * as path from 'node:path';
import { boxPath } from './report';
import {
  makeBoxDir,
  post,
  startDaemonProcess,
  type DaemonProcess,
} from '../../test/daemon-process';
import { echo, TestGateway } from '../../test/test-gateway';
import { createRecorder } from './recorder';
import { startTestX, type TestX } from '../test/x-server';

describe("POST /desktop on the box's daemon", () => {
  const box = makeBoxDir();
  let gateway: TestGateway;
  let daemon: DaemonProcess;
  let x: TestX;

  beforeAll(async () => {
    gateway = await TestGateway.start(box.socket);
    [daemon, x] = await Promise.all([
      startDaemonProcess(box),
      startTestX({ width: 640, height: 480 }),
    ]);
    await gateway.event('hello');
  });
  afterEach(() => (gateway.answer = echo));
  afterAll(async () => {
    await daemon?.stop();
    await gateway?.close();
    await x?.stop();
    box.remove();
  });

  it('forwards a report as a call frame on the desktop route', async () => {
    const since = gateway.frames.length;
    const args = { path: '/workspace/recordings/a.mp4' };
    const res = await post(`${daemon.url}/desktop`, { tool: 'recording_finished', args });
    expect(res).toEqual({
      status: 200,
      body: { ok: true, result: { tool: 'recording_finished', args } },
    });
    expect((await gateway.event('call', since)).data).toEqual({
      callId: expect.any(String),
      route: 'desktop',
      tool: 'recording_finished',
      args,
    });
    expect((await fetch(`${daemon.url}/desktop`)).status).toBe(405);
  });

  it("carries a finished recording from the recorder to the control plane, and the control plane's refusal back as a warning", async () => {
    const recorder = createRecorder({
      display: x.display,
      screen: x.screen,
      workspace: box.workspace,
      stateDir: path.join(box.dir, 'recording-state'),
      narration: { mode: 'never', askAboveSeconds: 5 },
      daemonUrl: daemon.url,
    });
    const since = gateway.frames.length;
    await recorder.start();
    await new Promise((r) => setTimeout(r, 400));
    const result = await recorder.stop(undefined);
    expect(result.warning).toBeUndefined();
    const call = await gateway.waitFor(
      (f) => f.event === 'call' && f.data.route === 'desktop',
      since,
    );
    expect(call.data).toEqual({
      callId: expect.any(String),
      route: 'desktop',
      tool: 'recording_finished',
      args: {
        // An unisolated box's host path is reported as the /workspace path it stands for.
        path: boxPath(fs.realpathSync(box.workspace), result.path),
        startedAt: result.startedAt,
        recordedSeconds: result.recordedSeconds,
        seconds: result.seconds,
        captions: [],
        track: null,
        narration: null,
        bytes: result.bytes,
      },
    });

    const error = { code: 'VALIDATION_FAILED', message: 'path: must be a file under /workspace' };
    gateway.answer = (c) => ({ callId: c.callId, ok: false, error });
    await recorder.start();
    const refused = await recorder.stop(undefined);
    expect(refused.warning).toBe(
      'the chat was not told about the video: path: must be a file under /workspace (VALIDATION_FAILED)',
    );
    expect(refused.bytes).toBeGreaterThan(0);
  });
});
