import * as fs from 'node:fs';
import WebSocket from 'ws';
import { boxPaths } from '../src/boxes/lifecycle/box-paths';
import { waitForBox } from './box-kit';
import { startApp, type RunningApp } from './harness';

describe("a box's desktop server reporting a finished recording", () => {
  let api: RunningApp;
  let id: string;
  let ws: WebSocket;
  let n = 0;

  const report = (tool: string, args: object): Promise<any> =>
    new Promise((resolve) => {
      const callId = `desktop-report-${++n}-${Date.now()}`;
      const onMessage = (m: WebSocket.RawData) => {
        const frame = JSON.parse((m as Buffer).toString());
        if (frame.event === 'result' && frame.data.callId === callId) {
          ws.off('message', onMessage);
          resolve(frame.data);
        }
      };
      ws.on('message', onMessage);
      ws.send(JSON.stringify({ event: 'call', data: { callId, route: 'desktop', tool, args } }));
    });

  beforeAll(async () => {
    api = await startApp(undefined, { SESSIONBOXER_BOXES: 'on' });
    id = (await api.request('POST', '/api/sessions', { title: 'Recorder' })).body.id;
    await waitForBox(api, id);
    // Frozen, the daemon cannot reconnect and take the socket back (one daemon per box)...
    await api.request('POST', `/api/sessions/${id}/stop`, {});
    // ...so this client speaks on the box's own socket, exactly as its daemon does.
    ws = new WebSocket(`ws+unix://${boxPaths(api.dataDir, id).socket}:/box`);
    await new Promise((r) => ws.once('open', r));
  });
  afterAll(async () => {
    ws.close();
    await api.close();
    fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  const finished = {
    path: '/workspace/recordings/demo.mp4',
    startedAt: '2026-11-30T10:00:00.000Z',
    recordedSeconds: 30.2,
    seconds: 18.4,
    bytes: 654321,
    captions: [
      { at: 0, text: 'Opening the app' },
      { at: 6.5, text: 'Clicking Save' },
      { at: 12, text: 'The saved file' },
    ],
    track: '/workspace/recordings/demo.vtt',
    narration: 'skipped',
  };

  it('becomes an event of the session, a marker linking the video, and a recording the UI can play', async () => {
    expect(await report('recording_finished', finished)).toMatchObject({
      ok: true,
      result: { recorded: true },
    });
    const recordings = (await api.request('GET', `/api/sessions/${id}/recordings`)).body;
    expect(recordings).toHaveLength(1);
    expect(recordings[0]).toMatchObject({
      path: finished.path,
      seconds: 18.4,
      captions: finished.captions,
      track: finished.track,
    });
    const markers = (await api.request('GET', `/api/sessions/${id}/transcript`)).body.entries.map(
      (e: any) => e.marker,
    );
    const marker = markers.find((m: { kind: string }) => m.kind === 'recording-finished');
    expect(marker.text).toBe('recorded a video (18 s, 3 steps): /workspace/recordings/demo.mp4');
    expect(marker.link).toEqual({ recording: finished.path });
  });

  it.each([
    ['a path outside the workspace', { ...finished, path: '/etc/shadow' }, /path/],
    ['an unknown field', { ...finished, sessionId: 'someone-else' }, /sessionId/],
    ['a caption without text', { ...finished, captions: [{ at: 1 }] }, /captions\.0\.text/],
  ])('refuses %s and records nothing', async (_case, args, why) => {
    const answer = await report('recording_finished', args);
    expect(answer.ok).toBe(false);
    expect(answer.error.message).toMatch(why);
    expect((await api.request('GET', `/api/sessions/${id}/recordings`)).body).toHaveLength(1);
  });

  it('narration added later updates the same recording: new length, re-timed captions, a marker', async () => {
    const narrated = {
      path: finished.path,
      seconds: 24.1,
      bytes: 700000,
      captions: [
        { at: 0, text: 'Opening the app' },
        { at: 9.5, text: 'Clicking Save' },
        { at: 17, text: 'The saved file' },
      ],
      track: finished.track,
    };
    expect(await report('recording_narrated', narrated)).toMatchObject({ ok: true });
    const recordings = (await api.request('GET', `/api/sessions/${id}/recordings`)).body;
    expect(recordings).toHaveLength(1);
    expect(recordings[0]).toMatchObject({
      seconds: 24.1,
      captions: narrated.captions,
      narration: 'added',
      startedAt: finished.startedAt,
    });
    const texts = (await api.request('GET', `/api/sessions/${id}/transcript`)).body.entries
      .map((e: any) => e.marker)
      .map((m: { text: string }) => m.text);
    expect(texts).toContain(`added narration to the video: ${finished.path}`);
    const bad = await report('recording_narrated', { ...narrated, path: '/etc/passwd' });
    expect(bad.ok).toBe(false);
  });

  it('refuses an unknown report', async () => {
    const answer = await report('format_disk', {});
    expect(answer).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });
});
