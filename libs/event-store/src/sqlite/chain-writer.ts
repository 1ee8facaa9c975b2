/**
 * Writes events with their link in the hash chain (schema 3: salted commitments, see
 * chain/commitment.ts), inside the group committer's transaction: each insert takes the next
 * position and chains from the event before it, so a batch of several appends follows position
 * order. The head stays in memory between transactions: `begin`, inside the write lock, reads
 * it again only when `PRAGMA data_version` says another connection (another process) committed
 * since, or after `reset` (a transaction that rolled back). An append undone by its savepoint
 * puts the cursor back with `restore`.
 *
 * With the digest thread (chain/digest-thread.ts), an append's events are handed over as it is
 * queued, with the position and revision each will take if everything queued before it
 * commits; an insert whose event kept its guess only chains the digest made there.
 */
import { GENESIS_HASH, HASH_BYTES } from '../chain/canonical';
import { GENESIS_TEXT, linkFromDigest, linkNew } from '../chain/commitment';
import { NO_LINK } from '../chain/digest-slots';
import type { ChainTable } from './chain-table';
import { DigestsAhead, type DigestThreadMode } from './digests-ahead';
import type { AppendRequest, Cursor, EventWriter } from './event-writer';
import type { EventTable } from './event-table';

export class ChainWriter implements EventWriter {
  private cursor: Cursor = { next: 1, prev: GENESIS_TEXT, linkSeq: NO_LINK, recordedAt: '' };
  /** The link being inserted, bound from here (better-sqlite3 copies it). */
  private readonly hashOut = Buffer.alloc(HASH_BYTES);
  /** The data_version the cursor was read or last written under; null: read it again. */
  private knownVersion: number | null = null;
  private readonly ahead: DigestsAhead;
  /** Digests made by the digest thread (`linked`: chained there too) and here. */
  readonly digests = { ahead: 0, linked: 0, here: 0 };

  constructor(
    private readonly chain: ChainTable,
    threadMode: DigestThreadMode = 'auto',
  ) {
    this.ahead = new DigestsAhead(threadMode);
  }

  begin(): void {
    this.ahead.begin();
    const version = this.chain.dataVersion();
    if (version === this.knownVersion) return;
    this.knownVersion = version;
    const head = this.chain.head();
    // A head without a hash was written around the chain (by hand); chaining on from zero
    // keeps appending, and verify names that event.
    // A stored hash that is not 32 bytes chains on as its first 32, zero-filled.
    const prev = Buffer.alloc(HASH_BYTES);
    (head?.hash ?? GENESIS_HASH).copy(prev, 0, 0, HASH_BYTES);
    this.cursor = {
      next: Math.max(head?.position ?? 0, this.chain.lastIssued()) + 1,
      prev: prev.toString('latin1'),
      linkSeq: NO_LINK,
      recordedAt: head?.recorded_at ?? '',
    };
  }

  recordedAt(gathered: string): string {
    return laterOf(gathered, this.cursor.recordedAt);
  }

  reset(): void {
    this.knownVersion = null;
  }

  mark(): Cursor {
    return this.cursor;
  }

  restore(mark: Cursor): void {
    this.cursor = mark;
  }

  queued(request: AppendRequest, recordedAt: string): void {
    this.ahead.queued(request, recordedAt);
  }

  insert(request: AppendRequest, index: number, revision: number, recordedAt: string): number {
    const head = this.cursor;
    const position = head.next;
    const event = request.events[index];
    const { streamName } = request;
    const made = this.ahead.take(request, index, { position, revision, recordedAt }, head);
    let salts: Buffer;
    let hash: string;
    let hashBytes: Buffer = this.hashOut;
    let linkSeq = NO_LINK;
    if (made?.link) {
      // Chained by the thread from this very head: the link is bound from where it lies.
      ({ salts, link: hashBytes } = made);
      hash = hashBytes.toString('latin1');
      linkSeq = made.seq | 0;
      this.digests.linked++;
    } else if (made) {
      salts = made.salts;
      hash = linkFromDigest(head.prev, made.digest, this.hashOut);
    } else {
      const { id, type, data, metadata } = event;
      const fields = { position, streamName, revision, id, type, data, metadata, recordedAt };
      ({ salts, hash } = linkNew(head.prev, fields, this.hashOut));
      this.digests.here++;
    }
    if (made) this.digests.ahead++;
    this.chain.insert(position, streamName, revision, event, recordedAt, hashBytes, salts);
    this.cursor = { next: position + 1, prev: hash, linkSeq, recordedAt };
    return position;
  }

  batchEnded(batch: readonly AppendRequest[], stillQueued: number): void {
    this.ahead.batchEnded(batch, stillQueued, this.cursor, this.knownVersion !== null);
  }

  close(): void {
    this.ahead.close();
  }
}

/** No chain (hash left NULL): only for measuring what the chain costs. */
export class UnchainedWriter implements EventWriter {
  constructor(private readonly table: EventTable) {}
  begin(): void {}
  reset(): void {}
  mark(): Cursor {
    return { next: 0, prev: GENESIS_TEXT, linkSeq: NO_LINK, recordedAt: '' };
  }
  /** The benchmark's comparison writes from one process: the batch's time as it is. */
  recordedAt(gathered: string): string {
    return gathered;
  }
  restore(): void {}
  queued(): void {}
  insert(request: AppendRequest, index: number, revision: number, recordedAt: string): number {
    return this.table.insert(request.streamName, revision, request.events[index], recordedAt);
  }
  batchEnded(): void {}
  close(): void {}
}

/**
 * `gathered` when it is not before `last` (ISO times in UTC compare as text); else now, or
 * `last` itself if the clock has gone back behind it.
 */
function laterOf(gathered: string, last: string): string {
  if (gathered >= last) return gathered;
  const now = new Date().toISOString();
  return now >= last ? now : last;
}
