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
import { hash, randomFillSync } from 'node:crypto';
import type { ChainFields } from './chain-fields';

const HASH_BYTES = 32;

export const SALT_BYTES = 16;
const TAG = Buffer.from('sessionboxer-event-v3', 'utf8');

/** What an export hides of one event; hidden leaves by their index (0-based, in order). */
export interface Hidden {
  leaves?: ReadonlyMap<number, Buffer>;
  /** The metadata's commitment, when the metadata itself is withheld. */
  metadata?: Buffer;
}

/** Salts or data that do not fit each other (a leaf without a salt, a salt without a leaf). */
export class CommitmentError extends Error {}

// Module-level scratch: one digest at a time (JavaScript runs one at a time per thread).
let out = Buffer.allocUnsafe(64 * 1024);
let at = 0;
let leafBuf = Buffer.allocUnsafe(64 * 1024);
let leaves = Buffer.allocUnsafe(16 * 1024);
let leafCount = 0;
let salts: Buffer = Buffer.alloc(0);
let making = false;
let hidden: ReadonlyMap<number, Buffer> | undefined;

const pool = Buffer.allocUnsafe(64 * 1024);
let poolAt = pool.length;

function room(n: number): void {
  if (at + n <= out.length) return;
  const bigger = Buffer.allocUnsafe(Math.max(out.length * 2, at + n));
  out.copy(bigger, 0, 0, at);
  out = bigger;
}

function putText(text: string): void {
  room(4 + 3 * text.length);
  const n = out.write(text, at + 4, 'utf8');
  out.writeUInt32BE(n, at);
  at += 4 + n;
}

/** Where the next leaf's salt is in `salts`: read from the event's, or made (from a random pool). */
function nextSalt(index: number): number {
  const from = (index + 1) * SALT_BYTES;
  if (making) {
    if (poolAt + SALT_BYTES > pool.length) {
      randomFillSync(pool);
      poolAt = 0;
    }
    if (salts.length < from + SALT_BYTES) {
      const bigger = Buffer.allocUnsafe(Math.max(salts.length * 2, from + SALT_BYTES));
      salts.copy(bigger, 0, 0, from);
      salts = bigger;
    }
    pool.copy(salts, from, poolAt, poolAt + SALT_BYTES);
    poolAt += SALT_BYTES;
  } else if (salts.length < from + SALT_BYTES) {
    throw new CommitmentError('its data has more strings than it has salts');
  }
  return from;
}

/** sha256(salt ‖ bytes of value), the salt at `saltAt` in `from`. */
function commit(from: Buffer, saltAt: number, value: string | Buffer): Buffer {
  const need = SALT_BYTES + (typeof value === 'string' ? 3 * value.length : value.length);
  if (leafBuf.length < need) leafBuf = Buffer.allocUnsafe(need * 2);
  from.copy(leafBuf, 0, saltAt, saltAt + SALT_BYTES);
  const n =
    typeof value === 'string'
      ? leafBuf.write(value, SALT_BYTES, 'utf8')
      : value.copy(leafBuf, SALT_BYTES);
  return hash('sha256', leafBuf.subarray(0, SALT_BYTES + n), 'buffer');
}

function leaf(value: string): void {
  const i = leafCount++;
  const given = hidden?.get(i);
  const c = given ?? commit(salts, nextSalt(i), value);
  if (leaves.length < leafCount * HASH_BYTES) {
    const bigger = Buffer.allocUnsafe(leaves.length * 2);
    leaves.copy(bigger);
    leaves = bigger;
  }
  c.copy(leaves, i * HASH_BYTES);
}

/** The shape: n t f, `d` field(number), `s` (a leaf), `[` count items, `{` count (key value)… */
function walk(v: unknown): void {
  room(5);
  if (typeof v === 'string') {
    out[at++] = 0x73; // s
    leaf(v);
  } else if (typeof v === 'number') {
    out[at++] = 0x64; // d
    putText(String(v));
  } else if (v === null) {
    out[at++] = 0x6e; // n
  } else if (v === true) {
    out[at++] = 0x74; // t
  } else if (v === false) {
    out[at++] = 0x66; // f
  } else if (Array.isArray(v)) {
    out[at++] = 0x5b; // [
    out.writeUInt32BE(v.length, at);
    at += 4;
    for (const item of v as unknown[]) walk(item);
  } else {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    out[at++] = 0x7b; // {
    out.writeUInt32BE(keys.length, at);
    at += 4;
    for (const k of keys) {
      putText(k);
      walk(o[k]);
    }
  }
}

function digestOf(e: ChainFields, data: unknown, hide: Hidden | undefined): Buffer {
  leafCount = 0;
  hidden = hide?.leaves;
  const metadataCommitment = hide?.metadata ?? commit(salts, nextSalt(-1), e.metadata);
  at = 0;
  room(TAG.length);
  TAG.copy(out, 0);
  at = TAG.length;
  putText(String(e.position));
  putText(e.streamName);
  putText(String(e.revision));
  putText(e.id);
  putText(e.type);
  putText(e.recordedAt);
  room(HASH_BYTES + 4);
  metadataCommitment.copy(out, at);
  at += HASH_BYTES;
  const shapeAt = at;
  at += 4;
  walk(data);
  out.writeUInt32BE(at - shapeAt - 4, shapeAt);
  room(leafCount * HASH_BYTES);
  leaves.copy(out, at, 0, leafCount * HASH_BYTES);
  at += leafCount * HASH_BYTES;
  return hash('sha256', out.subarray(0, at), 'buffer');
}

/** An event's digest from its stored salts (`hide`: what a bundle gives instead of values). */
export function eventDigest(e: ChainFields, eventSalts: Buffer, hide?: Hidden): Buffer {
  making = false;
  salts = eventSalts;
  const data: unknown = JSON.parse(typeof e.data === 'string' ? e.data : e.data.toString('utf8'));
  const digest = digestOf(e, data, hide);
  const expected = (leafCount + 1) * SALT_BYTES;
  if (eventSalts.length !== expected) {
    throw new CommitmentError(
      `it has ${eventSalts.length / SALT_BYTES} salts for ${leafCount + 1} commitments`,
    );
  }
  return digest;
}

/** A new event's salts (made here) and digest. */
export function commitNew(e: ChainFields & { data: string }): { salts: Buffer; digest: Buffer } {
  making = true;
  salts = Buffer.allocUnsafe(SALT_BYTES * 8);
  try {
    const digest = digestOf(e, JSON.parse(e.data), undefined);
    return { salts: Buffer.from(salts.subarray(0, (leafCount + 1) * SALT_BYTES)), digest };
  } finally {
    making = false;
    salts = Buffer.alloc(0);
  }
}

/** The link: sha256(prev ‖ digest). */
export function linkHash(prev: Buffer, digest: Buffer): Buffer {
  const buf = Buffer.allocUnsafe(HASH_BYTES * 2);
  prev.copy(buf, 0, 0, HASH_BYTES);
  digest.copy(buf, HASH_BYTES);
  return hash('sha256', buf, 'buffer');
}

/** One leaf's commitment (for an export that hides it), from its salt and value. */
export function leafCommitment(salt: Buffer, value: string): Buffer {
  return Buffer.from(commit(salt, 0, value));
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
