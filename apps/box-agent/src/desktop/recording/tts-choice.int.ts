import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRecorder } from './recorder';
import { streams, startReportSink } from './test/media-checks';
import { chooseTts } from './tts-choice';
import { startTestX, type TestX } from '../test/x-server';

/**
 * Which engine narrates: Kokoro only when an operator put a usable model in the image, else
 * espeak-ng, and a configured Kokoro that cannot speak says why. (Kokoro itself cannot run on
 * these machines: its weights cannot be fetched here, so only the choice is exercised.)
 */
const voice = 'af_heart';
let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sbx-tts-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('choosing the narration engine', () => {
  it('speaks with espeak-ng when no Kokoro model is configured, with nothing to report', () => {
    const tts = chooseTts({ kokoroModel: null, kokoroVoice: voice });
    expect(tts).toMatchObject({ engine: 'espeak-ng', voice: 'espeak-ng en-us', fallback: null });
  });

  it('falls back to espeak-ng when the configured model path does not exist, saying why', () => {
    const model = path.join(dir, 'Kokoro-82M-v1.0-ONNX');
    const tts = chooseTts({ kokoroModel: model, kokoroVoice: voice });
    expect(tts).toMatchObject({ engine: 'espeak-ng', voice: 'espeak-ng en-us' });
    expect(tts.fallback).toBe(
      `Kokoro could not speak (SESSIONBOXER_KOKORO_MODEL is ${model}, which is not a folder in this box), so espeak-ng did`,
    );
  });

  it('falls back when the folder holds no model weights, or the runtime is not installed', () => {
    const empty = chooseTts({ kokoroModel: dir, kokoroVoice: voice });
    expect(empty.fallback).toMatch(
      /which holds neither onnx\/model_quantized\.onnx nor onnx\/model\.onnx/,
    );
    fs.mkdirSync(path.join(dir, 'onnx'));
    fs.writeFileSync(path.join(dir, 'onnx/model_quantized.onnx'), '');
    const noRuntime = chooseTts({ kokoroModel: dir, kokoroVoice: voice });
    expect(noRuntime.fallback).toMatch(/its runtime kokoro-js is not installed in the image/);
    expect(chooseTts({ kokoroModel: 'models/kokoro', kokoroVoice: voice }).fallback).toMatch(
      /not an absolute path/,
    );
  });

  it('takes Kokoro when its model and runtime are there', () => {
    fs.mkdirSync(path.join(dir, 'onnx'));
    fs.writeFileSync(path.join(dir, 'onnx/model.onnx'), '');
    // Any module that resolves stands in for the runtime: only the choice is checked here.
    const tts = chooseTts({ kokoroModel: dir, kokoroVoice: 'bm_george' }, undefined, 'zod');
    expect(tts).toMatchObject({
      engine: 'kokoro',
      voice: 'kokoro bm_george',
      language: 'en-GB',
      fallback: null,
    });
    expect(tts.missing()).toBeNull();
  });
});

describe('a recording narrated after a fallback, on a real Xvfb with ffmpeg and espeak-ng', () => {
  let x: TestX;
  let sink: Awaited<ReturnType<typeof startReportSink>>;

  beforeAll(async () => {
    [x, sink] = await Promise.all([startTestX({ width: 640, height: 480 }), startReportSink()]);
  });
  afterAll(async () => {
    await x?.stop();
    await sink?.close();
  });

  it('reports espeak-ng as the voice and why Kokoro did not speak', async () => {
    const workspace = path.join(dir, 'workspace');
    fs.mkdirSync(workspace);
    const model = '/nonexistent/Kokoro-82M-v1.0-ONNX';
    const recorder = createRecorder({
      display: x.display,
      screen: x.screen,
      workspace,
      stateDir: path.join(dir, 'state'),
      narration: { mode: 'always', askAboveSeconds: 5 },
      tts: chooseTts({ kokoroModel: model, kokoroVoice: voice }),
      daemonUrl: sink.url,
    });
    await recorder.start();
    await recorder.annotate('Saying which engine spoke');
    await new Promise((r) => setTimeout(r, 1200));
    const result = await recorder.stop(undefined);
    expect(result.narration).toMatchObject({ added: true, voice: 'espeak-ng en-us' });
    expect(result.warning).toContain(
      `Kokoro could not speak (SESSIONBOXER_KOKORO_MODEL is ${model}, which is not a folder in this box), so espeak-ng did`,
    );
    expect(streams(result.path).audio).toMatchObject({ codec_name: 'aac' });
  });
});
