import { kokoroMissing, kokoroTts, type KokoroOptions } from './kokoro-tts';
import { espeakTts, type TtsPort } from './tts';

/** The box's narration engine settings (desktop-config: SESSIONBOXER_KOKORO_*). */
export interface TtsSettings {
  /** Kokoro's model folder, or null when the operator put none in the image. */
  kokoroModel: string | null;
  kokoroVoice: string;
}

/**
 * The engine that narrates in this box: Kokoro when its model is configured and usable, else
 * espeak-ng. A configured Kokoro that cannot speak falls back to espeak-ng rather than leaving
 * videos silent, and the fallback says why, so the result's warning tells the agent (and the
 * operator) what to fix.
 */
export function chooseTts(
  settings: TtsSettings,
  espeak: TtsPort = espeakTts(),
  runtime?: string,
): TtsPort {
  if (settings.kokoroModel === null) return espeak;
  const kokoro: KokoroOptions = {
    model: settings.kokoroModel,
    voice: settings.kokoroVoice,
    ...(runtime === undefined ? {} : { runtime }),
  };
  const missing = kokoroMissing(kokoro);
  if (missing === null) return kokoroTts(kokoro);
  return { ...espeak, fallback: `Kokoro could not speak (${missing}), so ${espeak.engine} did` };
}
