/**
 * sha256 as the chain calls it, several times per event. Node's one-shot `hash` costs about
 * 0.25 µs for a small input with a latin1 ("binary") text result and 0.85 µs with a Buffer result (measured on
 * Node 20: the Buffer is made on a slow path), so the digest comes back as latin1 text (one
 * character per byte) and is written where it is needed.
 */
import { hash } from 'node:crypto';

export const HASH_BYTES = 32;

/**
 * A scratch buffer that hands out a Buffer of its first `n` bytes, the same one while `n`
 * stays (making a subarray costs more than hashing a salt, and events of one kind hash the
 * same lengths again and again).
 */
export class Scratch {
  private view: Buffer;

  constructor(public buf: Buffer) {
    this.view = buf.subarray(0, 0);
  }

  /** Room for `n` bytes (the contents are not kept when it grows). */
  fit(n: number): Buffer {
    if (this.buf.length < n) {
      this.buf = Buffer.allocUnsafe(2 * n);
      this.view = this.buf.subarray(0, 0);
    }
    return this.buf;
  }

  /** Room for `n` bytes, keeping the first `keep`. */
  grow(n: number, keep: number): Buffer {
    if (this.buf.length >= n) return this.buf;
    const bigger = Buffer.allocUnsafe(Math.max(2 * this.buf.length, n));
    this.buf.copy(bigger, 0, 0, keep);
    this.buf = bigger;
    this.view = bigger.subarray(0, 0);
    return bigger;
  }

  head(n: number): Buffer {
    if (this.view.length !== n) this.view = this.buf.subarray(0, n);
    return this.view;
  }
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

/** sha256 of `input` as latin1 text (one character per byte). */
export function sha256Latin1(input: Buffer): string {
  return hash('sha256', input, 'binary');
}

/** sha256 of `input` in a new Buffer. */
export function sha256(input: Buffer | string): Buffer {
  return Buffer.from(hash('sha256', input, 'binary'), 'latin1');
}
