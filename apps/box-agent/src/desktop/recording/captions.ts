import type { Caption } from '@sessionboxer/mcp-adapters/desktop/recording';

/**
 * The caption band under the desktop and the .vtt beside the video. The band uses a monospaced
 * font so that wrapping, done here, knows each line's width exactly: nothing runs off the edge.
 */

/** DejaVu Sans Mono's advance is 1233/2048 em; other monospaced fonts are at most this wide. */
const ADVANCE_EM = 0.61;

export interface BandLayout {
  fontSize: number;
  /** Extra pixels between lines (drawtext's line_spacing). */
  lineSpacing: number;
  margin: number;
  /** Top of the first line, from the top of the band. */
  paddingTop: number;
  charsPerLine: number;
  /** Lines the band holds: at least three, more for the longest caption. */
  lines: number;
  /** Even, as yuv420p needs. */
  height: number;
}

export const MIN_BAND_LINES = 3;

/** Wraps on spaces; a word longer than a line is broken. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    let rest = word;
    while (rest.length > width) {
      if (current) lines.push(current);
      current = '';
      lines.push(rest.slice(0, width));
      rest = rest.slice(width);
    }
    if (!current) current = rest;
    else if (current.length + 1 + rest.length <= width) current += ` ${rest}`;
    else {
      lines.push(current);
      current = rest;
    }
  }
  if (current) lines.push(current);
  return lines;
}

/** Sizes the band for a screen `width` wide and the wrapped captions it must hold. */
export function bandLayout(width: number, texts: string[]): BandLayout {
  const fontSize = Math.max(12, Math.round(width / 46));
  const margin = Math.round(fontSize * 1.1);
  const charsPerLine = Math.max(10, Math.floor((width - 2 * margin) / (fontSize * ADVANCE_EM)));
  const lines = Math.max(MIN_BAND_LINES, ...texts.map((t) => wrap(t, charsPerLine).length));
  const lineSpacing = Math.round(fontSize * 0.3);
  const paddingTop = Math.round(fontSize * 0.6);
  // A line is about 1.17 em high in DejaVu (ascent + descent), plus the spacing.
  const lineHeight = Math.ceil(fontSize * 1.17) + lineSpacing;
  const height = paddingTop * 2 + lines * lineHeight;
  return {
    fontSize,
    lineSpacing,
    margin,
    paddingTop,
    charsPerLine,
    lines,
    height: height + (height % 2),
  };
}

function clock(seconds: number): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

function parseClock(value: string): number {
  const parts = value.split(':').map(Number);
  return parts.reduce((total, part) => total * 60 + part, 0);
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const DECODE: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>' };

/** A WebVTT file: each caption until the next one, the last until `end`. */
export function toVtt(captions: Caption[], end: number): string {
  const cues = captions.map((c, i) => {
    const until = Math.max(c.at, captions[i + 1]?.at ?? end);
    const text = c.text.replace(/[&<>]/g, (ch) => ENTITIES[ch]);
    return `${i + 1}\n${clock(c.at)} --> ${clock(until)}\n${text}\n`;
  });
  return ['WEBVTT', '', ...cues].join('\n');
}

/** The captions of a .vtt this recorder wrote (cue start and text). */
export function fromVtt(vtt: string): Caption[] {
  const captions: Caption[] = [];
  const cue = /^(\d+:\d{2}:\d{2}\.\d{3}) --> \S+[^\n]*\n([^\n]+)/gm;
  for (const m of vtt.replace(/\r\n?/g, '\n').matchAll(cue)) {
    const text = m[2].replace(/&(amp|lt|gt);/g, (e) => DECODE[e]);
    captions.push({ at: parseClock(m[1]), text });
  }
  return captions;
}

/** Seconds a caption needs on screen to be read (about 15 characters a second). */
export function readingSeconds(text: string): number {
  return Math.min(5, Math.max(1.5, text.length / 15));
}
