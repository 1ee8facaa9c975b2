/**
 * One store's use of the digest thread (chain/digest-thread.ts): each append is handed over as
 * it is queued, its events with the positions and revisions they take if everything queued
 * before them commits; the first event after a batch that emptied the queue also brings the
 * head it chains from (the anchor). At insert, `take` gives what the thread made only if those
 * guesses held, and the thread's link only if it was chained from the head the writer has.
 */
import { DigestThread, digestThreadUseful, type Made } from '../chain/digest-thread';
import type { AppendRequest, Cursor } from './event-writer';

/**
 * When the digest thread helps: `on` from the start, `auto` once a batch has brought
 * AUTO_AFTER appends together (and the machine has a second core), `off` never.
 */
export type DigestThreadMode = 'auto' | 'on' | 'off';

const AUTO_AFTER = 8;

export class DigestsAhead {
  private thread: DigestThread | undefined;
  /** The position the next queued event takes if all before it commit; undefined: unknown. */
  private guess: number | undefined;
  /** The head as the last batch left it, handed over with the event at its `next`. */
  private anchor: Cursor | undefined;
  /** The seq the anchor went with, and the head it was. */
  private anchored: { seq: number; head: Cursor } | undefined;

  constructor(private readonly mode: DigestThreadMode) {
    if (mode === 'on') this.thread = DigestThread.acquire();
  }

  queued(request: AppendRequest, recordedAt: string): void {
    const position = this.guess;
    if (position === undefined) return;
    const n = request.events.length;
    this.guess = position + n;
    const thread = this.thread;
    // Only an append that names its expected revision says the revisions its events take.
    const expected = request.expected;
    if (!thread || !(expected === 'no_stream' || typeof expected === 'number')) return;
    const revision = expected === 'no_stream' ? 0 : expected + 1;
    const seqs = new Array<number>(n).fill(-1);
    // Set first, so that the batch gives up whatever was handed over even if a handover throws.
    request.ahead = { position, revision, recordedAt, seqs };
    const { streamName } = request;
    const anchor = this.anchor;
    if (anchor && anchor.next < position + n) this.anchor = undefined;
    try {
      for (let i = 0; i < n; i++) {
        const { id, type, data, metadata } = request.events[i];
        const at = position + i;
        const from = anchor?.next === at ? anchor : undefined;
        const fields = { position: at, revision: revision + i, streamName, id, type, recordedAt };
        seqs[i] = thread.submit(fields, metadata, data, from?.prev);
        if (from && seqs[i] >= 0) this.anchored = { seq: seqs[i], head: from };
      }
    } catch {
      // The append is queued already: its events not handed over are hashed at insert.
    }
  }

  /** The transaction begins: the thread is told of everything handed over. */
  begin(): void {
    this.thread?.publish();
  }

  /**
   * What the thread made of the request's `index`-th event, as it is inserted at `position`
   * and `revision` after `head`, recorded at `recordedAt`, when its guesses held (the time is
   * the one it was queued with: checked all the same, as a wrong one would break the chain).
   * Its seq is done with either way.
   */
  take(
    request: AppendRequest,
    index: number,
    at: { position: number; revision: number; recordedAt: string },
    head: Cursor,
  ): Made | undefined {
    const ahead = request.ahead;
    const thread = this.thread;
    if (!ahead || !thread) return undefined;
    const seq = ahead.seqs[index];
    if (seq < 0) return undefined;
    ahead.seqs[index] = -1;
    const held =
      ahead.position + index === at.position &&
      ahead.revision + index === at.revision &&
      ahead.recordedAt === at.recordedAt;
    if (!held) {
      thread.drop(seq);
      return undefined;
    }
    const anchored = this.anchored;
    const anchorHeld = anchored !== undefined && anchored.seq === seq && anchored.head === head;
    return thread.take(seq, head.linkSeq, anchorHeld);
  }

  /**
   * A batch has ended with `head` (`known`: false after a rollback, when it is not), and
   * `stillQueued` events waiting: what the batch did not take is given up, and the guesses
   * start again from the head.
   */
  batchEnded(batch: readonly AppendRequest[], stillQueued: number, head: Cursor, known: boolean) {
    const thread = this.thread;
    if (thread) {
      for (const request of batch) for (const seq of request.ahead?.seqs ?? []) thread.drop(seq);
    } else if (this.mode === 'auto' && batch.length >= AUTO_AFTER && digestThreadUseful()) {
      this.thread = DigestThread.acquire();
    }
    const on = this.thread !== undefined && known;
    this.guess = on ? head.next + stillQueued : undefined;
    // With nothing queued, the head is where the next event chains on from.
    this.anchor = on && stillQueued === 0 ? head : undefined;
  }

  close(): void {
    this.thread?.release();
    this.thread = undefined;
    this.guess = undefined;
  }
}
