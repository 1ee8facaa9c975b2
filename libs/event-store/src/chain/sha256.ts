/**
 * sha256 as the chain calls it, several times per event. Node's one-shot `hash` costs about
 * 0.25 µs for a small input with a latin1 ("binary") text result and 0.85 µs with a Buffer result (measured on
 * Node 20: the Buffer is made on a slow path), so the digest comes back as latin1 text (one
 * character per byte) and is written where it is needed.
 */
import { hash } from 'node:crypto';

export const HASH_BYTES = 32;

const views = new WeakMap<Buffer, Map<number, Buffer>>();

/**
 * The first `n` bytes of a scratch buffer as a Buffer of its own, kept: making a subarray
 * costs more than a look-up, and events of one kind hash the same lengths again and again.
 */
export function head(scratch: Buffer, n: number): Buffer {
  let byLength = views.get(scratch);
  if (byLength === undefined) {
    byLength = new Map();
    views.set(scratch, byLength);
  }
  let view = byLength.get(n);
  if (view === undefined) {
    if (byLength.size >= 256) byLength.clear();
    view = scratch.subarray(0, n);
    byLength.set(n, view);
  }
  return view;
}

/** sha256 of `input`, written at `at` in `to` (byte by byte: cheaper than Buffer.write's call). */
export function sha256Into(input: Buffer | string, to: Buffer, at: number): void {
  const digest = hash('sha256', input, 'binary');
  for (let i = 0; i < HASH_BYTES; i++) to[at + i] = digest.charCodeAt(i);
}

/**
 * Copies `n` bytes: by hand for a salt or a hash (Buffer.copy's call costs more than copying
 * 32 bytes), with Buffer.copy beyond.
 */
export function copyBytes(src: Buffer, from: number, to: Buffer, at: number, n: number): void {
  if (n > 64) {
    src.copy(to, at, from, from + n);
    return;
  }
  for (let i = 0; i < n; i++) to[at + i] = src[from + i];
}

/** sha256 of `input` in a new Buffer. */
export function sha256(input: Buffer | string): Buffer {
  return Buffer.from(hash('sha256', input, 'binary'), 'latin1');
}
