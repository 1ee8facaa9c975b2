/**
 * The scratch one schema-3 digest is built in (commitment.ts says what goes in it): the
 * encoding so far, the leaves (one sha256 per string of the data), and the salts, read from
 * the event or made from a random pool. One digest at a time per thread (JavaScript runs one
 * at a time); the buffers are kept between events, so hashing an event allocates nothing.
 */
import { randomFillSync } from 'node:crypto';
import * as sha from './sha256';
import type { Scratch } from './sha256';

export const SALT_BYTES = 16;
// Bound here once (see commitment.ts: each use of an import is a getter through swc's CommonJS).
const HASH_BYTES = 32;
const { copyBytes, sha256Into, Scratch: ScratchBuffer } = sha;

/** Salts or data that do not fit each other (a leaf without a salt, a salt without a leaf). */
export class CommitmentError extends Error {}

const EMPTY = Buffer.alloc(0);

export class DigestWriter {
  out = Buffer.allocUnsafe(64 * 1024);
  at = 0;
  leafCount = 0;
  /** The event's salts (metadata's first, then one per leaf); when making, filled here. */
  salts: Buffer = EMPTY;
  making = false;
  /** A bundle's hidden leaves by index: their commitments stand in for the values. */
  hidden: ReadonlyMap<number, Buffer> | undefined;
  /** `out` as far as `at` (see Scratch), made again when `out` is. */
  private outView = EMPTY;
  /**
   * Where a commitment's salt and value are put together: the metadata's apart from the
   * leaves', so each keeps the view of its length (they alternate on every event).
   */
  private readonly leafBuf = new ScratchBuffer(Buffer.allocUnsafe(64 * 1024));
  private readonly metadataBuf = new ScratchBuffer(Buffer.allocUnsafe(4 * 1024));
  private leaves = Buffer.allocUnsafe(16 * 1024);
  private readonly pool = Buffer.allocUnsafe(64 * 1024);
  private saltsView: Buffer = EMPTY;
  private saltsViewOf: Buffer = EMPTY;
  private poolAt = this.pool.length;

  room(n: number): void {
    if (this.at + n <= this.out.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.out.length * 2, this.at + n));
    this.out.copy(bigger, 0, 0, this.at);
    this.out = bigger;
    this.outView = EMPTY;
  }

  byte(b: number): void {
    this.room(1);
    this.out[this.at++] = b;
  }

  /** Four bytes for a count known later (`fill`); returns where they are. */
  slot(): number {
    this.room(4);
    const at = this.at;
    this.at += 4;
    return at;
  }

  fill(slot: number, n: number): void {
    const out = this.out;
    out[slot] = n >>> 24;
    out[slot + 1] = (n >>> 16) & 0xff;
    out[slot + 2] = (n >>> 8) & 0xff;
    out[slot + 3] = n & 0xff;
  }

  /**
   * A field: the 4-byte big-endian length of the text's UTF-8 bytes, then the bytes. Short
   * ASCII (ids, names, times, numbers) is written by hand, cheaper than Buffer.write's call.
   */
  text(text: string): void {
    const length = text.length;
    this.room(4 + 3 * length);
    const out = this.out;
    const start = this.at + 4;
    let i = 0;
    if (length <= 128) {
      for (; i < length; i++) {
        const c = text.charCodeAt(i);
        if (c >= 0x80) break;
        out[start + i] = c;
      }
    }
    const n = i === length ? length : out.write(text, start, 'utf8');
    this.fill(this.at, n);
    this.at = start + n;
  }

  /**
   * The field `text(String(n))` writes, for a position or revision: a non-negative safe
   * integer's digits are written by hand (no string made); anything else goes through text.
   */
  integer(n: number): void {
    if (!Number.isSafeInteger(n) || n < 0) {
      this.text(String(n));
      return;
    }
    let digits = 1;
    for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) digits++;
    this.room(4 + digits);
    this.fill(this.at, digits);
    const out = this.out;
    let rest = n;
    for (let i = this.at + 3 + digits; i > this.at + 3; i--) {
      out[i] = 0x30 + (rest % 10);
      rest = Math.floor(rest / 10);
    }
    this.at += 4 + digits;
  }

  /** The same field from UTF-8 bytes already at hand (`src` from `from` to `to`). */
  bytes(src: Buffer, from: number, to: number): void {
    const n = to - from;
    this.room(4 + n);
    this.fill(this.at, n);
    copyBytes(src, from, this.out, this.at + 4, n);
    this.at += 4 + n;
  }

  /** Starts a digest (of an event with `salts`, or making new ones). */
  begin(salts: Buffer, making: boolean, hidden: ReadonlyMap<number, Buffer> | undefined): void {
    this.salts = salts;
    this.making = making;
    this.hidden = hidden;
    this.leafCount = 0;
    this.at = 0;
  }

  /** Throws the shape and leaves written since `mark` away (a scan that gave up). */
  rewind(mark: number): void {
    this.at = mark;
    this.leafCount = 0;
  }

  /** The metadata's commitment (salt 0), or the one a bundle gives for it, at the current end. */
  metadata(value: string | Buffer, given: Buffer | undefined): void {
    this.room(HASH_BYTES);
    if (given) copyBytes(given, 0, this.out, this.at, HASH_BYTES);
    else {
      const salt = this.nextSalt(-1);
      this.commit(this.metadataBuf, salt, value, 0, value.length, this.out, this.at);
    }
    this.at += HASH_BYTES;
  }

  /** The next leaf, from a string (`from`/`to` ignored) or from UTF-8 bytes `src[from, to)`. */
  leaf(value: string | Buffer, from: number, to: number): void {
    const i = this.leafCount++;
    if (this.leaves.length < this.leafCount * HASH_BYTES) {
      const bigger = Buffer.allocUnsafe(this.leaves.length * 2);
      this.leaves.copy(bigger);
      this.leaves = bigger;
    }
    const given = this.hidden?.get(i);
    if (given) copyBytes(given, 0, this.leaves, i * HASH_BYTES, HASH_BYTES);
    else this.commit(this.leafBuf, this.nextSalt(i), value, from, to, this.leaves, i * HASH_BYTES);
  }

  /** Appends the leaves and writes the sha256 of everything at `at` in `to`. */
  finish(to: Buffer, at: number): void {
    const n = this.leafCount * HASH_BYTES;
    this.room(n);
    copyBytes(this.leaves, 0, this.out, this.at, n);
    this.at += n;
    if (this.outView.length !== this.at) this.outView = this.out.subarray(0, this.at);
    sha256Into(this.outView, to, at);
  }

  /**
   * The salts made for this digest without a copy: a view of the writer's own buffer, good
   * only until the next digest, for a caller that stores them at once (better-sqlite3 copies
   * a bound blob). Saves an allocation per event on the write path.
   */
  madeSaltsView(): Buffer {
    const n = (this.leafCount + 1) * SALT_BYTES;
    if (this.saltsViewOf !== this.salts || this.saltsView.length !== n) {
      this.saltsViewOf = this.salts;
      this.saltsView = this.salts.subarray(0, n);
    }
    return this.saltsView;
  }

  /** Where salt `index` (-1: the metadata's) is in `salts`: the event's, or made now. */
  private nextSalt(index: number): number {
    const from = (index + 1) * SALT_BYTES;
    if (this.making) {
      if (this.poolAt + SALT_BYTES > this.pool.length) {
        randomFillSync(this.pool);
        this.poolAt = 0;
      }
      if (this.salts.length < from + SALT_BYTES) {
        const bigger = Buffer.allocUnsafe(Math.max(this.salts.length * 2, from + SALT_BYTES));
        this.salts.copy(bigger, 0, 0, from);
        this.salts = bigger;
      }
      copyBytes(this.pool, this.poolAt, this.salts, from, SALT_BYTES);
      this.poolAt += SALT_BYTES;
    } else if (this.salts.length < from + SALT_BYTES) {
      throw new CommitmentError('its data has more strings than it has salts');
    }
    return from;
  }

  /** sha256(salt ‖ bytes of the value) at `at` in `to`. */
  private commit(
    scratch: Scratch,
    saltAt: number,
    value: string | Buffer,
    from: number,
    end: number,
    to: Buffer,
    at: number,
  ): void {
    const most = typeof value === 'string' ? 3 * value.length : end - from;
    const buf = scratch.fit(SALT_BYTES + most);
    copyBytes(this.salts, saltAt, buf, 0, SALT_BYTES);
    let n = end - from;
    if (typeof value === 'string') n = buf.write(value, SALT_BYTES, 'utf8');
    else copyBytes(value, from, buf, SALT_BYTES, n);
    sha256Into(scratch.head(SALT_BYTES + n), to, at);
  }
}
