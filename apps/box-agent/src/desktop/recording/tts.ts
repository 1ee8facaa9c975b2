import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { findExecutable } from '../../terminals/find-executable';

/**
 * Text to speech for narration. The spec's engine is Kokoro (kokoro-tts.ts), used when an
 * operator puts its model in the image; espeak-ng (here) speaks otherwise. chooseTts picks.
 */
export interface TtsPort {
  /** Which engine speaks, as the result reports it (also the start of `voice`). */
  readonly engine: 'kokoro' | 'espeak-ng';
  /** Why the configured engine is not the one speaking (Kokoro's model is missing…), or null. */
  readonly fallback: string | null;
  /** BCP 47, as the tool result reports it ("en-US"). */
  readonly language: string;
  readonly voice: string;
  /** Why this engine cannot speak in this box (not installed…), or null when it can. */
  missing(): string | null;
  /** About how long speaking `text` takes, for the Ask setting's estimate. */
  estimateSeconds(text: string): number;
  /** Writes `text` spoken to a WAV file. */
  speak(text: string, wavPath: string): Promise<{ seconds: number }>;
}

/** The length of a PCM WAV file, from its fmt and data chunks. */
export function wavSeconds(wav: Buffer): number {
  if (wav.toString('ascii', 0, 4) !== 'RIFF' || wav.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error('not a WAV file');
  }
  let byteRate = 0;
  for (let at = 12; at + 8 <= wav.length;) {
    const id = wav.toString('ascii', at, at + 4);
    const size = wav.readUInt32LE(at + 4);
    if (id === 'fmt ') byteRate = wav.readUInt32LE(at + 16);
    // espeak-ng writing to a pipe leaves the size at its maximum: the rest of the file counts.
    if (id === 'data' && byteRate > 0) return Math.min(size, wav.length - at - 8) / byteRate;
    at += 8 + size + (size % 2);
  }
  throw new Error('a WAV file without fmt or data');
}

export interface EspeakOptions {
  /** An espeak-ng voice (`espeak-ng --voices`); default en-us. */
  voice?: string;
  language?: string;
  wordsPerMinute?: number;
  binary?: string;
}

/** espeak-ng, reading the text on stdin (never as an argument it could take for an option). */
export function espeakTts(options: EspeakOptions = {}): TtsPort {
  const binary = options.binary ?? 'espeak-ng';
  const voice = options.voice ?? 'en-us';
  const speed = String(options.wordsPerMinute ?? 165);
  return {
    engine: 'espeak-ng',
    fallback: null,
    language: options.language ?? 'en-US',
    voice: `espeak-ng ${voice}`,
    missing: () =>
      findExecutable(binary, '/') ? null : `the text-to-speech engine ${binary} is not installed`,
    estimateSeconds: (text) => 0.05 + text.length * 0.0005,
    speak: (text, wavPath) =>
      new Promise((resolve, reject) => {
        const child = spawn(binary, ['-v', voice, '-s', speed, '-w', wavPath, '--stdin'], {
          stdio: ['pipe', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('error', reject);
        child.on('close', (code) => {
          if (code !== 0) return reject(new Error(`${binary} exited ${code}: ${stderr.trim()}`));
          fs.readFile(wavPath).then((wav) => resolve({ seconds: wavSeconds(wav) }), reject);
        });
        child.stdin.on('error', () => undefined);
        child.stdin.end(`${text}\n`);
      }),
  };
}
