import * as path from 'node:path';
import type {
  Caption,
  Narration,
  NarrationAdded,
  NarrationPending,
} from '@sessionboxer/mcp-adapters/desktop/recording';
import type { TtsPort } from './tts';

/** The box's narration setting: Always, Ask (when it takes longer than N seconds), Never. */
export interface NarrationSetting {
  mode: 'always' | 'ask' | 'never';
  /** N for Ask; the default is 5. */
  askAboveSeconds: number;
}

export type NarrationPlan =
  | { kind: 'absent'; warning?: string }
  | { kind: 'skip'; reason: string; warning?: string }
  | { kind: 'speak' }
  | { kind: 'ask'; estimatedSeconds: number };

/**
 * Encoding seconds per second of 1024×768 video with the band (libx264 veryfast, 2 cores),
 * measured on the reference machine; scaled by pixels.
 */
export const ENCODE_SECONDS_PER_SECOND = 0.12;
/** A spoken step needs its sentence plus this pause before the next one. */
export const SENTENCE_GAP = 0.4;

export function estimateNarration(
  tts: TtsPort,
  texts: string[],
  videoSeconds: number,
  pixels: number,
): number {
  const speaking = texts.reduce((sum, t) => sum + tts.estimateSeconds(t), 0);
  const encoding = videoSeconds * ENCODE_SECONDS_PER_SECOND * (pixels / (1024 * 868));
  return Math.round((speaking + encoding + 0.5) * 10) / 10;
}

/** What stop_recording does about narration, before any work. */
export function planNarration(o: {
  captions: Caption[];
  narrate: boolean | undefined;
  setting: NarrationSetting;
  tts: TtsPort | null;
  estimate: () => number;
}): NarrationPlan {
  if (!o.captions.length) {
    const warning = o.narrate ? 'no narration: the recording has no captions to speak' : undefined;
    return { kind: 'absent', warning };
  }
  if (o.narrate === false) return { kind: 'skip', reason: 'narrate: false was passed' };
  if (o.setting.mode === 'never') {
    const reason = "the box's narration setting is Never";
    const warning = o.narrate ? `no narration: ${reason} (narrate_recording adds it)` : undefined;
    return { kind: 'skip', reason, warning };
  }
  const missing =
    o.tts === null ? 'no text-to-speech engine is set up in this box' : o.tts.missing();
  if (missing !== null) {
    const asked = o.narrate === true || o.setting.mode === 'always';
    return {
      kind: 'skip',
      reason: missing,
      warning: asked ? `no narration: ${missing}` : undefined,
    };
  }
  if (o.setting.mode === 'always' || o.narrate === true) return { kind: 'speak' };
  const estimatedSeconds = o.estimate();
  if (estimatedSeconds > o.setting.askAboveSeconds) return { kind: 'ask', estimatedSeconds };
  return { kind: 'speak' };
}

export interface Speech {
  files: { file: string; seconds: number }[];
  speechSeconds: number;
}

/** Speaks each caption to its own WAV in `dir`. */
export async function speakCaptions(
  tts: TtsPort,
  captions: Caption[],
  dir: string,
): Promise<Speech> {
  const files: Speech['files'] = [];
  for (const [i, caption] of captions.entries()) {
    const file = path.join(dir, `sentence-${i + 1}.wav`);
    const { seconds } = await tts.speak(caption.text, file);
    files.push({ file, seconds });
  }
  const speechSeconds = files.reduce((sum, f) => sum + f.seconds, 0);
  return { files, speechSeconds: Math.round(speechSeconds * 100) / 100 };
}

export function added(tts: TtsPort, speech: Speech, startedMs: number): NarrationAdded {
  return {
    added: true,
    language: tts.language,
    voice: tts.voice,
    speechSeconds: speech.speechSeconds,
    processingSeconds: Math.round((Date.now() - startedMs) / 100) / 10,
  };
}

export function pending(tts: TtsPort, estimatedSeconds: number, mp4: string): NarrationPending {
  return {
    pending: true,
    estimatedSeconds,
    language: tts.language,
    voice: tts.voice,
    nextStep:
      `Narration would take about ${estimatedSeconds} s, so it was not added. Ask the person ` +
      `whether they want spoken narration; if they do, call narrate_recording with ` +
      `{ "path": ${JSON.stringify(mp4)} }.`,
  };
}

/**
 * What a result says when its narration (spoken or offered) is by another engine than the one
 * configured: `voice` names the engine that speaks, this says why it is not Kokoro.
 */
export function fallbackWarning(tts: TtsPort | null, narration: Narration | undefined) {
  if (!tts?.fallback || !narration || 'skipped' in narration) return null;
  return tts.fallback;
}
