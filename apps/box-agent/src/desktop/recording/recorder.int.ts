import { execFile, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { RecordingPort } from '@sessionboxer/mcp-adapters/desktop/recording';
import { isToolCallError } from '@sessionboxer/mcp-adapters/kit';
import { captureAlive } from './capture';
import { fromVtt } from './captions';
import { boxPath } from './report';
import { createRecorder } from './recorder';
import type { NarrationSetting } from './narration';
import { StateStore } from './state';
import {
  brightPixels,
  grayFrame,
  startReportSink,
  streams,
  topLevelBoxes,
} from './test/media-checks';
import { startTestX, type TestX } from '../test/x-server';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const execFileAsync = promisify(execFile);
const repoRoot = path.resolve(__dirname, '../../../../..');

describe('the recorder, on a real Xvfb with ffmpeg and espeak-ng', () => {
  let x: TestX;
  /** The windows a test opened; closed after it. */
  const windows: ChildProcess[] = [];
  let sink: Awaited<ReturnType<typeof startReportSink>>;
  let dir: string;
  let workspace: string;
  let stateDir: string;

  beforeAll(async () => {
    [x, sink] = await Promise.all([startTestX(), startReportSink()]);
  });
  afterAll(async () => {
    await x?.stop();
    await sink?.close();
  });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sbx-rec-test-'));
    workspace = path.join(dir, 'workspace');
    stateDir = path.join(dir, 'state');
    fs.mkdirSync(workspace);
  });
  afterEach(async () => {
    // Whatever a failed test left running goes, then every file.
    const state = await new StateStore(stateDir).read();
    if (state && captureAlive(state.pid, state.capturePath)) process.kill(-state.pid, 'SIGKILL');
    for (const w of windows.splice(0)) w.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function recorder(mode: NarrationSetting['mode'], askAboveSeconds = 5): RecordingPort {
    const { display, screen } = x;
    const narration = { mode, askAboveSeconds };
    return createRecorder({ display, screen, workspace, stateDir, narration, daemonUrl: sink.url });
  }

  /** A red window, 4 s of stillness, then a step far shorter than its sentence. */
  async function demo(r: RecordingPort) {
    await sleep(300);
    const a = await r.annotate('Opening a red terminal');
    windows.push(await x.xterm('red', '80x24+0+0', ['sleep', '60'], ['-bg', 'red']));
    await sleep(4000);
    const long = 'The blue terminal counts to five while this rather long sentence is spoken aloud';
    const b = await r.annotate(long);
    const counting = ['sh', '-c', 'seq 5; sleep 60'];
    windows.push(await x.xterm('blue', '40x10+300+300', counting, ['-bg', 'blue']));
    await sleep(700);
    const c = await r.annotate('Done');
    await sleep(1500);
    return [a, b, c];
  }

  it('burns three captions into a band, condenses, writes the .vtt and narrates (Always)', async () => {
    const r = recorder('always');
    const started = await r.start();
    expect(started).toEqual({
      path: expect.stringMatching(/\/recordings\/[\dT-]+Z\.mp4$/),
      startedAt: expect.any(String),
      seconds: 0,
      captions: 0,
    });
    expect(started.path.startsWith(fs.realpathSync(workspace))).toBe(true);
    const [a, b, c] = await demo(r);
    expect(a).toEqual({
      at: expect.any(Number),
      text: 'Opening a red terminal',
      path: started.path,
    });
    expect(await r.status()).toMatchObject({ path: started.path, captions: 3 });
    const result = await r.stop(undefined);

    expect(result).toEqual({
      path: started.path,
      startedAt: started.startedAt,
      recordedSeconds: expect.any(Number),
      seconds: expect.any(Number),
      condensed: true,
      bytes: fs.statSync(started.path).size,
      captions: [
        { at: expect.any(Number), text: a.text },
        { at: expect.any(Number), text: b.text },
        { at: expect.any(Number), text: c.text },
      ],
      track: started.path.replace(/\.mp4$/, '.vtt'),
      narration: {
        added: true,
        language: 'en-US',
        voice: 'espeak-ng en-us',
        speechSeconds: expect.any(Number),
        processingSeconds: expect.any(Number),
      },
    });
    expect(result.recordedSeconds).toBeGreaterThan(c.at + 1.4);
    const { video, audio } = streams(result.path);
    expect(video).toMatchObject({ codec_name: 'h264', pix_fmt: 'yuv420p', width: 1024 });
    expect(video?.height).toBeGreaterThan(768);
    expect(audio).toMatchObject({ codec_name: 'aac' });
    const boxes = topLevelBoxes(result.path);
    expect(boxes.indexOf('moov')).toBeGreaterThan(-1);
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));

    const cues = fromVtt(fs.readFileSync(result.track!, 'utf8'));
    expect(cues).toEqual(result.captions.map((cap) => ({ at: cap.at, text: cap.text })));
    const [ca, cb, cc] = result.captions;
    // The 4 s of stillness after the red window shrank...
    expect(cb.at - ca.at).toBeLessThan(b.at - a.at - 1);
    // ...and the 0.7 s step grew to hold its long sentence (about 5 s spoken).
    expect(cc.at - cb.at).toBeGreaterThan(3);
    expect(result.seconds).toBeGreaterThan(cc.at + 1);

    // The caption is drawn in the band under the desktop.
    const rows = grayFrame(result.path, cb.at + 0.5, 1024);
    expect(brightPixels(rows.slice(768))).toBeGreaterThan(200);

    const reported = boxPath(fs.realpathSync(workspace), result.path);
    expect(reported).toMatch(/^\/workspace\/recordings\//);
    const report = sink.posts.find((p) => p.body.args?.path === reported);
    expect(report?.url).toBe('/desktop');
    expect(report?.body).toEqual({
      tool: 'recording_finished',
      callId: expect.any(String),
      args: {
        path: reported,
        startedAt: result.startedAt,
        recordedSeconds: result.recordedSeconds,
        seconds: result.seconds,
        captions: result.captions,
        track: boxPath(fs.realpathSync(workspace), result.track ?? ''),
        narration: 'added',
        bytes: result.bytes,
      },
    });
  });

  it('asks first under Ask for a long job, delivering the silent video; narrate_recording adds the voice in place', async () => {
    const r = recorder('ask', 0.5);
    const { path: mp4 } = await r.start();
    await sleep(200);
    await r.annotate('Opening a terminal');
    windows.push(await x.xterm('terminal', '80x24+0+0', ['sleep', '60']));
    await sleep(3500);
    await r.annotate('This sentence takes much longer to say than the step it describes');
    await sleep(500);
    await r.annotate('Done');
    await sleep(600);
    const silent = await r.stop(undefined);
    expect(silent.narration).toEqual({
      pending: true,
      estimatedSeconds: expect.any(Number),
      language: 'en-US',
      voice: 'espeak-ng en-us',
      nextStep: expect.stringContaining(
        `narrate_recording with { "path": ${JSON.stringify(mp4)} }`,
      ),
    });
    expect((silent.narration as { estimatedSeconds: number }).estimatedSeconds).toBeGreaterThan(
      0.5,
    );
    expect(silent.condensed).toBe(true);
    expect(silent.recordedSeconds).toBeGreaterThan(silent.seconds + 1);
    expect(streams(mp4).audio).toBeUndefined();

    const narrated = await r.narrate(mp4);
    expect(narrated).toEqual({
      path: mp4,
      seconds: expect.any(Number),
      bytes: fs.statSync(mp4).size,
      captions: silent.captions.map((c) => ({ at: expect.any(Number), text: c.text })),
      track: silent.track,
      narration: expect.objectContaining({ added: true, speechSeconds: expect.any(Number) }),
    });
    // Steps shorter than their sentence now last as long as it, so the captions move later;
    // the half-second one grows the most, and the video with it.
    narrated.captions.forEach((c, i) => expect(c.at).toBeGreaterThanOrEqual(silent.captions[i].at));
    const step = (captions: { at: number }[]) => captions[2].at - captions[1].at;
    expect(step(narrated.captions) - step(silent.captions)).toBeGreaterThan(2);
    expect(narrated.seconds).toBeGreaterThan(silent.seconds + 2);
    const after = streams(mp4);
    expect(after.video).toMatchObject({ codec_name: 'h264', pix_fmt: 'yuv420p' });
    expect(after.video?.height).toBeGreaterThan(768);
    expect(after.audio).toMatchObject({ codec_name: 'aac' });
    expect(topLevelBoxes(mp4).indexOf('moov')).toBeLessThan(topLevelBoxes(mp4).indexOf('mdat'));
    expect(fromVtt(fs.readFileSync(silent.track!, 'utf8'))).toEqual(narrated.captions);
    // The stop reported the silent video as pending; the narration reports its new timing.
    const reportedMp4 = boxPath(fs.realpathSync(workspace), mp4);
    const reports = sink.posts.filter((p) => p.body.args?.path === reportedMp4);
    expect(reports.map((p) => p.body.tool)).toEqual(['recording_finished', 'recording_narrated']);
    expect(reports[0].body.args.narration).toBe('pending');
    expect(reports[1].body.args).toEqual({
      path: reportedMp4,
      seconds: narrated.seconds,
      bytes: narrated.bytes,
      captions: narrated.captions,
      track: boxPath(fs.realpathSync(workspace), narrated.track ?? ''),
    });
  });

  it('lets a later MCP server process find and stop the recording; Never skips narration; captions stay literal', async () => {
    // The first "server" is a process that starts the recording and exits, as a turn ends.
    const options = {
      display: x.display,
      screen: x.screen,
      ...{ workspace, stateDir, daemonUrl: sink.url },
      narration: { mode: 'never', askAboveSeconds: 5 },
    };
    const cli = path.join(__dirname, 'test/recorder-cli.ts');
    const inChild = async (...args: string[]) => {
      const argv = ['-r', '@swc-node/register', cli, JSON.stringify(options), ...args];
      const { stdout } = await execFileAsync(process.execPath, argv, { cwd: repoRoot });
      return JSON.parse(stdout);
    };
    const { path: mp4, startedAt } = await inChild('start');
    const later = recorder('never');
    await expect(later.start()).rejects.toThrow(/a recording is already running/);
    expect(await later.status()).toEqual({
      path: mp4,
      startedAt,
      seconds: expect.any(Number),
      captions: 0,
    });
    // Captions from several processes at once: the locked read-modify-write loses none.
    const steps = Array.from({ length: 8 }, (_, i) => `Step ${i + 1}`);
    await Promise.all(
      steps.map((text, i) => (i < 3 ? inChild('annotate', text) : later.annotate(text))),
    );
    expect(await inChild('status')).toMatchObject({ path: mp4, captions: 8 });
    const marker = path.join(dir, 'pwned');
    const evil =
      `It's "quoted": C:\\temp\\new; $(touch ${marker}) \`touch ${marker}\` %{pts} ` +
      `{\\b1} <b>&amp; --> 100%`;
    await later.annotate(evil);
    await sleep(1200);
    const result = await later.stop(undefined);
    expect(result.narration).toEqual({ skipped: "the box's narration setting is Never" });
    expect(result.warning).toBeUndefined();
    expect(result.captions.map((c) => c.text).sort()).toEqual([...steps, evil].sort());
    expect(result.captions[8]).toEqual({ at: expect.any(Number), text: evil });
    const vtt = fs.readFileSync(result.track!, 'utf8');
    expect(vtt).toContain('&lt;b&gt;&amp;amp; --&gt; 100%');
    expect(fromVtt(vtt)).toEqual(result.captions);
    expect(fs.existsSync(marker)).toBe(false);
    const rows = grayFrame(mp4, result.seconds / 2, 1024);
    expect(brightPixels(rows.slice(768))).toBeGreaterThan(200);
    expect(streams(mp4).audio).toBeUndefined();
    expect(await inChild('status')).toEqual({ recording: false });
    // Nothing of the capture is left: no ffmpeg, no raw file, no state.
    expect(fs.readdirSync(path.dirname(mp4)).sort()).toEqual(
      [path.basename(mp4), path.basename(result.track!)].sort(),
    );
    expect(spawnSync('pgrep', ['-f', path.dirname(mp4)]).stdout.toString()).toBe('');
  });

  it('refuses annotate and stop with nothing recording, and takes a dead recording for none', async () => {
    const r = recorder('never');
    expect(await r.status()).toEqual({ recording: false });
    await expect(r.annotate('Hello')).rejects.toMatchObject({
      code: 'INVALID_STATE',
      message: expect.stringMatching(/nothing is recording/),
    });
    await expect(r.stop(undefined)).rejects.toThrow(/nothing is recording/);
    await expect(r.narrate(path.join(workspace, 'recordings/none.mp4'))).rejects.toThrow(
      /does not exist/,
    );
    // A state file left by an ffmpeg that died (its pid now belongs to nobody).
    const dead = spawnSync('true').pid;
    fs.mkdirSync(stateDir, { recursive: true });
    const stale = { pid: dead, display: x.display, path: '/x.mp4', capturePath: '/x.mkv' };
    fs.writeFileSync(path.join(stateDir, 'recording.json'), JSON.stringify(stale));
    expect(await r.status()).toEqual({ recording: false });
    await expect(r.annotate('Hello')).rejects.toThrow(/nothing is recording/);
    await r.start();
    await sleep(300);
    const result = await r.stop(false);
    expect(result).not.toHaveProperty('narration');
    expect(result).not.toHaveProperty('track');
    expect(result.captions).toEqual([]);
  });

  it('keeps every path inside the workspace', async () => {
    const r = recorder('never');
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'sbx-outside-'));
    try {
      fs.writeFileSync(path.join(outside, 'v.mp4'), 'x');
      fs.mkdirSync(path.join(workspace, 'recordings'));
      fs.symlinkSync(path.join(outside, 'v.mp4'), path.join(workspace, 'recordings/link.mp4'));
      const refusal = (p: string) => r.narrate(p).catch((e: unknown) => e);
      for (const [given, why] of [
        [path.join(outside, 'v.mp4'), /path must be inside the workspace/],
        [path.join(workspace, 'recordings/../../x.mp4'), /path must be inside the workspace/],
        [path.join(workspace, 'recordings/link.mp4'), /path must be inside .* leads to/],
      ] as const) {
        const e = await refusal(given);
        expect(isToolCallError(e)).toBe(true);
        expect(e).toMatchObject({ field: 'path', message: expect.stringMatching(why) });
      }
      // A recordings folder that is a symlink out of the workspace is never written through.
      fs.rmSync(path.join(workspace, 'recordings'), { recursive: true });
      fs.symlinkSync(outside, path.join(workspace, 'recordings'));
      await expect(r.start()).rejects.toThrow(/not a plain folder/);
      expect(await r.status()).toEqual({ recording: false });
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
