import * as path from 'node:path';
import type { Response } from 'express';
import type { OpenBoxFile } from './box-files';

/**
 * A workspace file is the box's, not ours: it is never run as a page of the control plane's
 * origin (an .html or .svg would otherwise script the signed-in person's session).
 */
const FILE_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; img-src 'self'; media-src 'self'; sandbox",
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-cache',
};

/** What the UI shows inline; anything else downloads as bytes. */
const TYPES: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.vtt': 'text/vtt; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.txt': 'text/plain; charset=utf-8',
  '.log': 'text/plain; charset=utf-8',
};

type Range = { start: number; end: number } | 'whole' | 'unsatisfiable';

/** One `bytes=` range (a-b, a-, -n); several ranges are answered whole, as RFC 9110 allows. */
export function byteRange(header: string | undefined, size: number): Range {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return 'whole';
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/** Streams the opened file (whole or the asked range) and closes it, whatever happens. */
export function sendBoxFile(res: Response, file: OpenBoxFile, rangeHeader?: string): void {
  const type = TYPES[path.extname(file.name).toLowerCase()];
  res.set(FILE_HEADERS);
  res.set('Accept-Ranges', 'bytes');
  res.set('Last-Modified', file.mtime.toUTCString());
  res.set('Content-Type', type ?? 'application/octet-stream');
  if (!type) res.attachment(file.name);
  const range = byteRange(rangeHeader, file.size);
  if (range === 'unsatisfiable') {
    void file.handle.close();
    res.status(416).set('Content-Range', `bytes */${file.size}`).end();
    return;
  }
  const { start, end } = range === 'whole' ? { start: 0, end: file.size - 1 } : range;
  if (range !== 'whole') res.status(206).set('Content-Range', `bytes ${start}-${end}/${file.size}`);
  res.set('Content-Length', String(Math.max(0, end - start + 1)));
  if (file.size === 0) {
    void file.handle.close();
    res.end();
    return;
  }
  const stream = file.handle.createReadStream({ start, end, autoClose: true });
  // A seek aborts the running range: the browser went away, the handle is closed.
  res.on('close', () => stream.destroy());
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}
