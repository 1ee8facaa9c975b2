import { randomUUID } from 'node:crypto';
import { existsSync, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Caption } from '@sessionboxer/mcp-adapters/desktop/recording';
import { writeFileAtomic } from '../../workspace/safe-write';
import { toVtt, wrap, type BandLayout } from './captions';
import type { BandSpec } from './render';

/** The files around one finishing pass: a private work folder, temp outputs, the .vtt. */

const FONTS = [
  '/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf',
  '/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf',
  '/usr/share/fonts/truetype/freefont/FreeMono.ttf',
];

/** A monospaced font file for the band, or null to let fontconfig pick "monospace". */
export function bandFont(): string | null {
  return FONTS.find((f) => existsSync(f)) ?? null;
}

/** Runs `fn` with a fresh folder whose path is safe inside a filter graph, then removes it. */
export async function withWorkDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const base = /^[\w/.+-]+$/.test(os.tmpdir()) ? os.tmpdir() : '/tmp';
  const dir = await fs.mkdtemp(path.join(base, 'sbx-recording-'));
  try {
    return await fn(dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** Each caption's wrapped lines in its own file, for drawtext's textfile. */
export async function writeBand(
  dir: string,
  layout: BandLayout,
  captions: Caption[],
  end: number,
  screenHeight: number,
): Promise<BandSpec> {
  const files = await Promise.all(
    captions.map(async (c, i) => {
      const file = path.join(dir, `caption-${i + 1}.txt`);
      await fs.writeFile(file, wrap(c.text, layout.charsPerLine).join('\n'));
      return { file, start: c.at, end: Math.max(c.at, captions[i + 1]?.at ?? end + 1) };
    }),
  );
  return { layout, screenHeight, fontFile: bandFont(), captions: files };
}

/** A name beside `file` for ffmpeg to write to before it replaces `file`. */
export function tempBeside(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${randomUUID()}.tmp.mp4`);
}

/** Moves the finished temp file over the target; removes it on failure. */
export async function replaceWith(temp: string, target: string): Promise<number> {
  try {
    await fs.rename(temp, target);
  } catch (e) {
    await fs.rm(temp, { force: true });
    throw e;
  }
  return (await fs.stat(target)).size;
}

/** Writes the .vtt (no symlink followed), returning its path. */
export async function writeTrack(
  workspace: string,
  vtt: string,
  captions: Caption[],
  end: number,
): Promise<string> {
  const root = await fs.realpath(workspace);
  return writeFileAtomic(root, path.relative(root, vtt), toVtt(captions, end));
}

export const round2 = (n: number) => Math.round(n * 100) / 100;
