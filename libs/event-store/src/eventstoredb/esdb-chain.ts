/**
 * The hash chain on EventStoreDB (on paper: no EventStoreDB runs on these machines, so only
 * this pure part is tested). EventStoreDB has no transaction around "read the head, then
 * append" and gives the commit position and the recorded time only after the write, so:
 *
 * - the link travels in the event's metadata as `$chain: { seq, prevHash, hash, salts }`, `seq`
 *   standing in for the position (1, 2, 3 … over `$all`'s user events, which commit positions
 *   are not), and the recorded time is not chained (`recordedAt` hashes as '');
 * - data and metadata hash as the JSON text of the event as given (metadata without `$chain`),
 *   schema 3's salted commitments as SQLite's (chain/commitment.ts), salts in base64; a link
 *   without salts is schema 2's (chain/canonical.ts);
 * - the adapter reads the head (the last user event of `$all`) before each append and appends
 *   one at a time in this process, so the chain is linear only with one writing process.
 */
import type { SerializedEvent } from '../append-validation';
import { chainHash, GENESIS_HASH } from '../chain/canonical';
import { commitNew, linkHash } from '../chain/commitment';

export const CHAIN_KEY = '$chain';

export interface EsdbLink {
  seq: number;
  /** hex */
  prevHash: string;
  /** hex */
  hash: string;
  /** base64, schema 3 (absent on a schema-2 link) */
  salts?: string;
}

/** The link of the event a new append follows: none for an empty store. */
export type EsdbHead = { seq: number; hash: Buffer } | null;

/** The link in an event's metadata, if it has a well-formed one. */
export function linkOf(metadata: unknown): EsdbLink | null {
  const link = (metadata as Record<string, unknown> | null)?.[CHAIN_KEY] as Partial<EsdbLink>;
  if (
    typeof link !== 'object' ||
    link === null ||
    !Number.isSafeInteger(link.seq) ||
    typeof link.prevHash !== 'string' ||
    typeof link.hash !== 'string' ||
    (link.salts !== undefined && typeof link.salts !== 'string')
  ) {
    return null;
  }
  return link as EsdbLink;
}

/** The head a read of `$all`'s last user event gives (its metadata), or null for none. */
export function headOf(lastMetadata: unknown): EsdbHead {
  const link = lastMetadata === undefined ? null : linkOf(lastMetadata);
  return link ? { seq: link.seq, hash: Buffer.from(link.hash, 'hex') } : null;
}

/**
 * The links of one append of `events` to `streamName` whose first event gets `firstRevision`,
 * after `head`: each event's metadata object with `$chain` added, in order.
 */
export function chainAppend(
  head: EsdbHead,
  streamName: string,
  firstRevision: number,
  events: readonly SerializedEvent[],
): EsdbLink[] {
  let seq = head?.seq ?? 0;
  let prev = head?.hash ?? GENESIS_HASH;
  return events.map((e, i) => {
    seq++;
    const { salts, digest } = commitNew({
      position: seq,
      streamName,
      revision: firstRevision + i,
      id: e.id,
      type: e.type,
      data: e.data,
      metadata: e.metadata,
      recordedAt: '',
    });
    const hash = linkHash(prev, digest);
    const prevHash = prev.toString('hex');
    prev = hash;
    return { seq, prevHash, hash: hash.toString('hex'), salts: salts.toString('base64') };
  });
}

/**
 * Why a read-back event does not follow `prev` (null when it does). `metadata` is the
 * metadata as read (with `$chain`); its other fields re-serialise to the text that was hashed
 * as long as no key in it looks like an array index (JSON.parse would move it first).
 */
export function esdbLinkProblem(
  prev: EsdbHead,
  e: {
    streamName: string;
    revision: number;
    id: string;
    type: string;
    data: unknown;
    metadata: unknown;
  },
): string | null {
  const link = linkOf(e.metadata);
  if (!link) return 'no $chain link in its metadata';
  const expectedSeq = (prev?.seq ?? 0) + 1;
  if (link.seq !== expectedSeq) return `link ${link.seq} where ${expectedSeq} was due`;
  if (link.prevHash !== (prev?.hash ?? GENESIS_HASH).toString('hex')) {
    return 'its prevHash is not the hash of the event before it';
  }
  const { [CHAIN_KEY]: _link, ...metadata } = e.metadata as Record<string, unknown>;
  let recomputed: Buffer;
  try {
    recomputed = chainHash(prev?.hash ?? GENESIS_HASH, {
      position: link.seq,
      streamName: e.streamName,
      revision: e.revision,
      id: e.id,
      type: e.type,
      data: JSON.stringify(e.data),
      metadata: JSON.stringify(metadata),
      recordedAt: '',
      salts: link.salts === undefined ? null : Buffer.from(link.salts, 'base64'),
    });
  } catch {
    return 'its data does not fit its salts';
  }
  return recomputed.toString('hex') === link.hash ? null : 'hash mismatch';
}
