import { existsSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { wavSeconds, type TtsPort } from './tts';

/**
 * Kokoro (the spec's engine) through kokoro-js, the ONNX runtime for Node, on a model folder
 * an operator put in the image (the layout of onnx-community/Kokoro-82M-v1.0-ONNX:
 * config.json, tokenizer files, onnx/model*.onnx). Nothing is fetched: remote models are
 * switched off, and kokoro-js ships its voices. kokoro-js is not a dependency of Sessionboxer
 * (its runtime downloads CUDA binaries when installed); an image that wants Kokoro installs it.
 */
export interface KokoroOptions {
  /** SESSIONBOXER_KOKORO_MODEL: the model folder, absolute, as the box sees it. */
  model: string;
  /** SESSIONBOXER_KOKORO_VOICE: a kokoro-js voice, af_heart by default. */
  voice: string;
  /** The runtime's module name, for tests: kokoro-js. */
  runtime?: string;
}

/** Module names held in variables: neither is a dependency, so nothing may import them statically. */
const TRANSFORMERS = '@huggingface/transformers';
const KOKORO_JS = 'kokoro-js';

/** The model files kokoro-js loads, by the dtype it names them with; the smaller first. */
const WEIGHTS = [
  ['q8', 'onnx/model_quantized.onnx'],
  ['fp32', 'onnx/model.onnx'],
] as const;

/** The part of kokoro-js's published API this adapter uses. */
interface KokoroModel {
  generate(text: string, o: { voice: string }): Promise<{ toWav(): ArrayBuffer }>;
}
interface KokoroRuntime {
  KokoroTTS: {
    from_pretrained(id: string, o: { dtype: string; device: 'cpu' }): Promise<KokoroModel>;
  };
}
interface TransformersEnv {
  env: { localModelPath: string; allowRemoteModels: boolean; allowLocalModels: boolean };
}

function resolvable(id: string): boolean {
  try {
    require.resolve(id);
    return true;
  } catch {
    return false;
  }
}

/** Why this Kokoro cannot speak here, or null. */
export function kokoroMissing(o: KokoroOptions): string | null {
  const where = `SESSIONBOXER_KOKORO_MODEL is ${o.model}`;
  if (!path.isAbsolute(o.model)) return `${where}, not an absolute path`;
  if (!existsSync(o.model) || !statSync(o.model).isDirectory()) {
    return `${where}, which is not a folder in this box`;
  }
  if (!WEIGHTS.some(([, file]) => existsSync(path.join(o.model, file)))) {
    return `${where}, which holds neither ${WEIGHTS.map(([, f]) => f).join(' nor ')}`;
  }
  const runtime = o.runtime ?? KOKORO_JS;
  if (!resolvable(runtime)) return `its runtime ${runtime} is not installed in the image`;
  return null;
}

/** English only, as Kokoro's voices: a… American, b… British. */
const language = (voice: string) => (voice.startsWith('b') ? 'en-GB' : 'en-US');

export function kokoroTts(o: KokoroOptions): TtsPort {
  let loaded: Promise<KokoroModel> | null = null;
  // Loaded once per MCP server process, at the first sentence: the model takes seconds.
  const model = () => (loaded ??= load(o));
  return {
    engine: 'kokoro',
    fallback: null,
    language: language(o.voice),
    voice: `kokoro ${o.voice}`,
    missing: () => kokoroMissing(o),
    // Kokoro-82M on 2 CPU cores: roughly a fifth of real time, a sentence being ~15 chars/s.
    estimateSeconds: (text) => 2 + (text.length / 15) * 0.2,
    speak: async (text, wavPath) => {
      const audio = await (await model()).generate(text, { voice: o.voice });
      const wav = Buffer.from(audio.toWav());
      await writeFile(wavPath, wav);
      return { seconds: wavSeconds(wav) };
    },
  };
}

async function load(o: KokoroOptions): Promise<KokoroModel> {
  const runtime = o.runtime ?? KOKORO_JS;
  const { env } = (await import(TRANSFORMERS)) as TransformersEnv;
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.localModelPath = `${path.dirname(o.model)}/`;
  const { KokoroTTS } = (await import(runtime)) as KokoroRuntime;
  const [dtype] = WEIGHTS.find(([, file]) => existsSync(path.join(o.model, file))) ?? WEIGHTS[1];
  return KokoroTTS.from_pretrained(path.basename(o.model), { dtype, device: 'cpu' });
}
