import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Where a harness's parser puts the images a tool result carries (a desktop screenshot, an
 * MCP tool's picture): a screenshot is too large for the event log's output, so it is saved
 * as a file and the result names it. `saveImage` returns the line the result shows in its
 * place, or null when the image cannot be kept (the result then says `[image]`). It never
 * throws: a tool result is input we do not control.
 */
export interface MediaSink {
  saveImage(mime: string, base64: string): string | null;
}

/** Keeps no image: the result says `[image]` (the sandbox API's events, a test's parser). */
export const NO_MEDIA: MediaSink = { saveImage: () => null };

/** The largest image kept, decoded; a larger one is named `[image]` only. */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

/** The image types the web UI shows inline, by the extension the file is saved with. */
const IMAGE_TYPES: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Folder of the saved images, relative to the workspace. */
const IMAGES = '.sessionboxer/images';

/** The decoded bytes of strict base64 within the cap, else null (never a silent partial decode). */
function decoded(base64: string): Buffer | null {
  if (base64.length === 0 || base64.length % 4 !== 0 || !BASE64.test(base64)) return null;
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  if ((base64.length / 4) * 3 - padding > MAX_IMAGE_BYTES) return null;
  return Buffer.from(base64, 'base64');
}

/**
 * Saves images in the workspace (the turn's folder, /workspace in a box) under
 * .sessionboxer/images, named by their hash, as the line `[image /workspace/….png]` the web UI
 * shows inline. An unknown type, data that is not base64, an image over the cap or a failed
 * write keep `[image]`.
 */
export function workspaceMedia(workspace: string): MediaSink {
  return {
    saveImage(mime, base64) {
      const ext = IMAGE_TYPES[mime.toLowerCase()];
      const bytes = ext === undefined ? null : decoded(base64);
      if (bytes === null) return null;
      const name = `${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}.${ext}`;
      try {
        mkdirSync(path.join(workspace, IMAGES), { recursive: true });
        writeFileSync(path.join(workspace, IMAGES, name), bytes);
      } catch {
        return null;
      }
      return `[image /workspace/${IMAGES}/${name}]`;
    },
  };
}

/** The line a tool result shows for an image: the saved file's, else `[image]`. */
export function imageLine(media: MediaSink, mime: unknown, base64: unknown): string {
  if (typeof mime !== 'string' || typeof base64 !== 'string') return '[image]';
  return media.saveImage(mime, base64) ?? '[image]';
}
