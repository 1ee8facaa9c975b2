/**
 * Checkpoints: events in their own stream that sign the chain head with the installation's
 * ed25519 key, so a history rewritten from some event on (hashes recomputed) no longer matches
 * a signature the rewriter cannot make.
 *
 * The signed message is `sessionboxer-checkpoint-v1` ‖ 4-byte length ‖ position (decimal
 * ASCII) ‖ the 32-byte head hash. keyId is the first 16 hex digits of sha256 over the public
 * key's DER (SPKI), so a checkpoint says which key signed it.
 */
import { createHash, sign, verify, type KeyObject } from 'node:crypto';
import { HASH_BYTES } from './canonical';

/** Not `$…`: the port keeps those names for EventStoreDB's system streams. */
export const CHECKPOINT_STREAM = 'audit-checkpoints';
export const CHECKPOINT_TYPE = 'ChainCheckpointed';

export interface CheckpointData {
  /** The position of the chain head signed (the checkpoint event itself comes after it). */
  position: number;
  /** That event's hash, hex. */
  hash: string;
  /** ed25519 signature of the message above, base64. */
  signature: string;
  keyId: string;
}

const TAG = Buffer.from('sessionboxer-checkpoint-v1', 'utf8');

function message(position: number, hash: Buffer): Buffer {
  const pos = Buffer.from(String(position), 'ascii');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(pos.length);
  return Buffer.concat([TAG, length, pos, hash]);
}

const keyIds = new WeakMap<KeyObject, string>();

export function keyIdOf(publicKey: KeyObject): string {
  let id = keyIds.get(publicKey);
  if (id === undefined) {
    const der = publicKey.export({ type: 'spki', format: 'der' });
    id = createHash('sha256').update(der).digest('hex').slice(0, 16);
    keyIds.set(publicKey, id);
  }
  return id;
}

/** The checkpoint data for head `position` with hash `hash`, signed with `privateKey`. */
export function signCheckpoint(
  privateKey: KeyObject,
  publicKey: KeyObject,
  position: number,
  hash: Buffer,
): CheckpointData {
  const signature = sign(null, message(position, hash), privateKey).toString('base64');
  return { position, hash: hash.toString('hex'), signature, keyId: keyIdOf(publicKey) };
}

/** Why `data` is not a checkpoint signed by `publicKey`, or null when it is. */
export function checkpointProblem(data: unknown, publicKey: KeyObject): string | null {
  const d = data as Partial<CheckpointData> | null;
  if (
    typeof d !== 'object' ||
    d === null ||
    typeof d.position !== 'number' ||
    !Number.isSafeInteger(d.position) ||
    typeof d.hash !== 'string' ||
    !/^[0-9a-f]{64}$/.test(d.hash) ||
    typeof d.signature !== 'string' ||
    typeof d.keyId !== 'string'
  ) {
    return 'not a checkpoint (needs position, hash, signature, keyId)';
  }
  const expectedKey = keyIdOf(publicKey);
  if (d.keyId !== expectedKey) {
    return `signed by key ${d.keyId}, not by this installation's key ${expectedKey}`;
  }
  const hash = Buffer.from(d.hash, 'hex');
  const ok =
    hash.length === HASH_BYTES &&
    verify(null, message(d.position, hash), publicKey, Buffer.from(d.signature, 'base64'));
  return ok ? null : 'the signature does not match the public key';
}
