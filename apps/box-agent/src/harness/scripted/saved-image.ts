import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';

export type Block = { type?: unknown; text?: unknown; data?: unknown; mimeType?: unknown };

const IMAGE_TYPES: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg' };

/**
 * An image block of a tool result, saved in the workspace (the turn's folder) under
 * .sessionboxer/images by its hash, as the line `[image /workspace/….png]` the web UI shows
 * inline: a screenshot is too large for the event log's output.
 */
export function savedImage(block: Block): string[] {
  const ext = typeof block.mimeType === 'string' ? IMAGE_TYPES[block.mimeType] : undefined;
  if (block.type !== 'image' || typeof block.data !== 'string' || ext === undefined) return [];
  const bytes = Buffer.from(block.data, 'base64');
  const name = `${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}.${ext}`;
  mkdirSync('.sessionboxer/images', { recursive: true });
  writeFileSync(`.sessionboxer/images/${name}`, bytes);
  return [`[image /workspace/.sessionboxer/images/${name}]`];
}
