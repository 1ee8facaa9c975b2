/**
 * What a tool result or a reply carries beyond its text: images a harness saved for a result
 * (a line `[image /workspace/….png]`), and the `/workspace/…mp4` videos a reply names.
 */

const IMAGE_LINE = /^\[image (\/workspace\/[^\s\]]+\.(?:png|jpe?g|gif|webp))\]$/;
const VIDEO_PATH = /\/workspace\/[\w./@+-]*?[\w@+-]\.mp4\b/g;

export interface SplitOutput {
  /** The output without its image lines. */
  text: string;
  /** The box paths of the images, in order. */
  images: string[];
}

/** A tool result's output: its image lines taken out as box paths. */
export function splitImages(output: string): SplitOutput {
  const images: string[] = [];
  const lines = output.split('\n').filter((line) => {
    const m = IMAGE_LINE.exec(line.trim());
    if (!m) return true;
    images.push(m[1]);
    return false;
  });
  return { text: lines.join('\n'), images };
}

/** The `/workspace/…mp4` paths a text names, each once, none with `..` in it. */
export function videoPaths(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(VIDEO_PATH)) {
    if (!m[0].split('/').includes('..')) found.add(m[0]);
  }
  return [...found];
}
