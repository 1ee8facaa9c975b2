/**
 * The hash chain's one encoding of an event, shared by both adapters, `verify` and bundles.
 *
 *   hash = sha256(prevHash ‖ field₁ ‖ … ‖ field₈)
 *   field = 4-byte big-endian length of the field's UTF-8 bytes, then those bytes
 *   fields, in order: position, stream name, revision, event id, type, data, metadata,
 *   recorded at; integers as decimal ASCII, data and metadata as the exact JSON text stored
 *
 * The first event's prevHash is 32 zero bytes. Every field carries its length, so no two
 * different events encode alike (no separator a value could contain).
 *
 * That is schema 2's link. An event with salts is schema 3's (commitment.ts): the same fields,
 * its data committed string by string, so an export can hide a value and still verify.
 */
import { eventLink } from './commitment';
import { sha256 } from './sha256';
import type { ChainFields } from './chain-fields';

export type { ChainFields } from './chain-fields';

/** An event as the chain sees it, with the hash stored beside it (null: never chained). */
export interface ChainedEvent extends ChainFields {
  hash: Buffer | null;
}

export const HASH_BYTES = 32;
/** The prevHash of the first event. */
export const GENESIS_HASH: Buffer = Buffer.alloc(HASH_BYTES);

let scratch = Buffer.allocUnsafe(64 * 1024);

/** The event's link: schema 3's when it has salts, else sha256 of `prev` and its encoding. */
export function chainHash(prev: Buffer, e: ChainFields): Buffer {
  if (e.salts) return eventLink(prev, e, e.salts);
  return chainHashV2(prev, e);
}

/** Schema 2's link: sha256(prev ‖ the eight fields). */
export function chainHashV2(prev: Buffer, e: ChainFields): Buffer {
  const position = String(e.position);
  const revision = String(e.revision);
  // UTF-8 needs at most 3 bytes per UTF-16 unit; 8 fields with a 4-byte length each.
  const worst =
    HASH_BYTES +
    32 +
    3 *
      (position.length +
        revision.length +
        e.streamName.length +
        e.id.length +
        e.type.length +
        e.data.length +
        e.metadata.length +
        e.recordedAt.length);
  if (scratch.length < worst) scratch = Buffer.allocUnsafe(worst * 2);
  const buf = scratch;
  prev.copy(buf, 0, 0, HASH_BYTES);
  let at = put(buf, HASH_BYTES, position);
  at = put(buf, at, e.streamName);
  at = put(buf, at, revision);
  at = put(buf, at, e.id);
  at = put(buf, at, e.type);
  at = put(buf, at, e.data);
  at = put(buf, at, e.metadata);
  at = put(buf, at, e.recordedAt);
  return sha256(buf.subarray(0, at));
}

/** One field at `at`: its UTF-8 byte length (4 bytes, big-endian), then the bytes. */
function put(buf: Buffer, at: number, field: string | Buffer): number {
  const length =
    typeof field === 'string' ? buf.write(field, at + 4, 'utf8') : field.copy(buf, at + 4);
  buf.writeUInt32BE(length, at);
  return at + 4 + length;
}
