/**
 * Schema 3's link: an event commits to each string of its data separately, with a salt, so an
 * export can take a value out (a credential) and still prove the event, and an event left out
 * of an export is represented by its digest alone.
 *
 *   hash      = sha256(prevHash ‖ digest)
 *   digest    = sha256("sessionboxer-event-v3" ‖ field(position) ‖ field(stream name) ‖
 *                 field(revision) ‖ field(event id) ‖ field(type) ‖ field(recorded at) ‖
 *                 metadataCommitment ‖ field(shape of data) ‖ leaf₁ ‖ … ‖ leafₙ)
 *   metadataCommitment = sha256(salt₀ ‖ metadata as stored)
 *   leafᵢ     = sha256(saltᵢ ‖ UTF-8 of the data's i-th string, in the order of its JSON text)
 *   shape     = the data's JSON value with every string replaced by `s` (see `walk`)
 *
 * Salts are 16 random bytes each, stored with the event (`salts`: metadata's, then one per
 * string of the data); a hidden value's salt is never given out, so its leaf cannot be guessed.
 * The data is committed as a JSON value (parsed), not as text: whitespace or `1.0` for `1`
 * hash alike; the metadata as its exact text.
 */
import { DigestWriter, CommitmentError } from './digest-writer';
import type { ChainFields } from './chain-fields';
import * as bytesScan from './json-scan';
import * as textScan from './json-scan-text';
import * as sha from './sha256';

export { CommitmentError, SALT_BYTES } from './digest-writer';

const TAG = Buffer.from('sessionboxer-event-v3', 'utf8');
// Here, not imported, and the imports bound once: the benchmarks and tests load this file as
// CommonJS through swc, where each use of an import is a getter call (measured in the write
// path, several per event).
const HASH_BYTES = 32;
const SALT_BYTES = 16;
const { copyBytes, sha256, sha256Into, sha256Latin1 } = sha;
const { scanShape } = bytesScan;
const { scanText } = textScan;

/** What an export hides of one event; hidden leaves by their index (0-based, in order). */
export interface Hidden {
  leaves?: ReadonlyMap<number, Buffer>;
  /** The metadata's commitment, when the metadata itself is withheld. */
  metadata?: Buffer;
}

const w = new DigestWriter();
/** Where new salts are made (kept between events; what an event keeps is a copy). */
let making: Buffer = Buffer.allocUnsafe(SALT_BYTES * 8);
const NO_SALTS = Buffer.alloc(0);
/** prev ‖ digest, hashed into the link. */
const linkBuf = Buffer.allocUnsafe(2 * HASH_BYTES);

/** The shape: n t f, `d` field(number), `s` (a leaf), `[` count items, `{` count (key value)… */
function walk(v: unknown): void {
  if (typeof v === 'string') {
    w.byte(0x73); // s
    w.leaf(v, 0, 0);
  } else if (typeof v === 'number') {
    w.byte(0x64); // d
    w.text(String(v));
  } else if (v === null) {
    w.byte(0x6e); // n
  } else if (v === true) {
    w.byte(0x74); // t
  } else if (v === false) {
    w.byte(0x66); // f
  } else if (Array.isArray(v)) {
    w.byte(0x5b); // [
    w.fill(w.slot(), v.length);
    for (const item of v as unknown[]) walk(item);
  } else {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    w.byte(0x7b); // {
    w.fill(w.slot(), keys.length);
    for (const k of keys) {
      w.text(k);
      walk(o[k]);
    }
  }
}

/**
 * The digest of `e` into `to` at `at`. The data is scanned, as text (json-scan-text.ts) or as
 * its UTF-8 bytes (json-scan.ts); a bundle's hidden values, or text the scan gives up on, are
 * parsed and walked, which writes the same. (A JS string encodes to UTF-8 as JSON.parse's
 * strings re-encode: a lone surrogate becomes U+FFFD either way.)
 */
function digestInto(e: ChainFields, hide: Hidden | undefined, to: Buffer, at: number): void {
  w.at = TAG.length;
  copyBytes(TAG, 0, w.out, 0, TAG.length);
  w.integer(e.position);
  w.text(e.streamName);
  w.integer(e.revision);
  w.text(e.id);
  w.text(e.type);
  w.text(e.recordedAt);
  w.metadata(e.metadata, hide?.metadata);
  const shapeAt = w.slot();
  const data = e.data;
  const scanned =
    hide?.leaves === undefined &&
    (typeof data === 'string' ? scanText(w, data) : scanShape(w, data));
  if (!scanned) {
    w.rewind(shapeAt + 4);
    walk(JSON.parse(typeof data === 'string' ? data : data.toString('utf8')));
  }
  w.fill(shapeAt, w.at - shapeAt - 4);
  w.finish(to, at);
}

function expectSalts(eventSalts: Buffer): void {
  const expected = (w.leafCount + 1) * SALT_BYTES;
  if (eventSalts.length !== expected) {
    throw new CommitmentError(
      `it has ${eventSalts.length / SALT_BYTES} salts for ${w.leafCount + 1} commitments`,
    );
  }
}

/** An event's digest from its stored salts (`hide`: what a bundle gives instead of values). */
export function eventDigest(e: ChainFields, eventSalts: Buffer, hide?: Hidden): Buffer {
  w.begin(eventSalts, false, hide?.leaves);
  const digest = Buffer.allocUnsafe(HASH_BYTES);
  digestInto(e, hide, digest, 0);
  expectSalts(eventSalts);
  return digest;
}

/** The event's link from `prev`, sha256(prev ‖ digest), its digest made from its stored salts. */
export function eventLink(prev: Buffer, e: ChainFields, eventSalts: Buffer): Buffer {
  w.begin(eventSalts, false, undefined);
  digestInto(e, undefined, linkBuf, HASH_BYTES);
  expectSalts(eventSalts);
  copyBytes(prev, 0, linkBuf, 0, HASH_BYTES);
  return sha256(linkBuf);
}

/**
 * A new event's salts (made here) and its digest, written at `at` in `to`. The salts returned
 * are the writer's scratch, good until the next digest: the caller copies them at once.
 */
export function commitInto(e: ChainFields, to: Buffer, at: number): Buffer {
  w.begin(making, true, undefined);
  try {
    digestInto(e, undefined, to, at);
    return w.madeSaltsView();
  } finally {
    making = w.salts; // grown, if the event had many strings
    w.begin(NO_SALTS, false, undefined);
  }
}

/** A new event's salts (made here, a copy) and digest. */
export function commitNew(e: ChainFields & { data: string }): { salts: Buffer; digest: Buffer } {
  const digest = Buffer.allocUnsafe(HASH_BYTES);
  const salts = commitInto(e, digest, 0);
  return { salts: Buffer.from(salts), digest };
}

/** GENESIS_HASH as latin1 text (one character per byte), the form `linkNew` chains in. */
export const GENESIS_TEXT = '\0'.repeat(HASH_BYTES);

/**
 * A new event's salts (made here) and its link from `prev`, for the write path, which makes
 * no Buffer per event: `prev` and the link returned are latin1 text (one character per byte:
 * what sha256 hands back, kept as it is), and the link's bytes are also written into `hashOut`
 * for the insert to bind (better-sqlite3 copies a bound blob, so one buffer serves every
 * event). The salts are scratch too, good until the next call: the caller stores them at once.
 */
export function linkNew(
  prev: string,
  e: ChainFields & { data: string },
  hashOut: Buffer,
): { salts: Buffer; hash: string } {
  const salts = commitInto(e, linkBuf, HASH_BYTES);
  return { salts, hash: chainOn(prev, hashOut) };
}

/**
 * The link from `prev` of an event whose digest was made elsewhere (the digest thread), as
 * `linkNew` gives it: latin1 text, its bytes also in `hashOut`.
 */
export function linkFromDigest(prev: string, digest: Buffer, hashOut: Buffer): string {
  copyBytes(digest, 0, linkBuf, HASH_BYTES, HASH_BYTES);
  return chainOn(prev, hashOut);
}

/** sha256(prev ‖ the digest already in linkBuf's second half), as text and into `hashOut`. */
function chainOn(prev: string, hashOut: Buffer): string {
  for (let i = 0; i < HASH_BYTES; i++) linkBuf[i] = prev.charCodeAt(i);
  const hash = sha256Latin1(linkBuf);
  for (let i = 0; i < HASH_BYTES; i++) hashOut[i] = hash.charCodeAt(i);
  return hash;
}

/** The link: sha256(prev ‖ digest). */
export function linkHash(prev: Buffer, digest: Buffer): Buffer {
  copyBytes(prev, 0, linkBuf, 0, HASH_BYTES);
  copyBytes(digest, 0, linkBuf, HASH_BYTES, HASH_BYTES);
  return sha256(linkBuf);
}

/** The link from the 32 bytes at `prevAt` in `prev` and at `digestAt` in `digest`, into `to`. */
export function linkInto(
  prev: Buffer,
  prevAt: number,
  digest: Buffer,
  digestAt: number,
  to: Buffer,
  toAt: number,
): void {
  copyBytes(prev, prevAt, linkBuf, 0, HASH_BYTES);
  copyBytes(digest, digestAt, linkBuf, HASH_BYTES, HASH_BYTES);
  sha256Into(linkBuf, to, toAt);
}

/** One leaf's commitment (for an export that hides it), from its salt and value. */
export function leafCommitment(salt: Buffer, value: string): Buffer {
  const buf = Buffer.concat([salt.subarray(0, SALT_BYTES), Buffer.from(value, 'utf8')]);
  const out = Buffer.allocUnsafe(HASH_BYTES);
  sha256Into(buf, out, 0);
  return out;
}

/** The strings of a parsed JSON value, in the order the commitment numbers its leaves. */
export function stringLeaves(value: unknown): string[] {
  const found: string[] = [];
  const visit = (v: unknown): void => {
    if (typeof v === 'string') found.push(v);
    else if (Array.isArray(v)) for (const item of v as unknown[]) visit(item);
    else if (typeof v === 'object' && v !== null) {
      const o = v as Record<string, unknown>;
      for (const k of Object.keys(o)) visit(o[k]);
    }
  };
  visit(value);
  return found;
}

/** `value` with the leaves numbered in `which` replaced by `by` (same shape, same key order). */
export function replaceLeaves(value: unknown, which: ReadonlySet<number>, by: string): unknown {
  let i = 0;
  const visit = (v: unknown): unknown => {
    if (typeof v === 'string') return which.has(i++) ? by : v;
    if (Array.isArray(v)) return (v as unknown[]).map(visit);
    if (typeof v === 'object' && v !== null) {
      const o = v as Record<string, unknown>;
      const copy: Record<string, unknown> = {};
      for (const k of Object.keys(o)) {
        Object.defineProperty(copy, k, { value: visit(o[k]), enumerable: true, writable: true });
      }
      return copy;
    }
    return v;
  };
  return visit(value);
}
