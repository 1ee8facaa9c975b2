/**
 * The memory the write path shares with its digest thread (digest-thread.ts): a ring of
 * fixed-size slots, one per event handed over, and a few control words. The calling thread
 * writes an event's fields into slot `seq % SLOTS` and moves SUBMITTED on; the thread reads
 * them, makes the event's salts and digest (commitment.ts, `commitInto`), chains the digest on
 * from the link it made before (or from the `anchor` given with the event) and writes it all
 * back into the same slot, `resultSeq` last. Sequence numbers are counted without end on the
 * calling side; the shared words hold them as int32 (`seq | 0`).
 *
 *   slot:  the result, in the lines the calling thread reads back:
 *            resultSeq | saltCount | prevSeq | link 32 B | digest 32 B | salts (≤ MAX_SALTS)
 *          the request, in lines of its own (the thread only reads them):
 *            requestSeq | anchored | position f64 | revision f64 | 6 field lengths |
 *            anchor 32 B | the fields' bytes
 *
 * `prevSeq` says what the link was chained from: the seq (as int32) of the result before it
 * whose link it follows, ANCHORED_LINK for the anchor its request brought, or NO_LINK.
 * The fields' bytes are the stream name, event id, type and recorded time, then the metadata
 * and the data, as UTF-8 (what SQLite stores, so what verify hashes).
 */
import { HASH_BYTES } from './canonical';
import type { ChainFields } from './chain-fields';
import { SALT_BYTES } from './digest-writer';

export const SLOTS = 128;
export const SLOT_BYTES = 16 * 1024;

/**
 * The control words (their own Int32Array), by index: each one the calling thread and the
 * thread both touch on its own cache line (64 bytes), so writing one does not take the line
 * of another from the other core.
 */
export const SUBMITTED = 0;
/** The next seq the thread will take up (so while it equals a seq, that one is in hand). */
export const DONE = 16;
/** Written once each, and SLEEPING (0 awake, else which sleep) twice a burst: rarely moved. */
export const READY = 32;
export const STOP = 33;
export const SLEEPING = 34;
export const CONTROL_WORDS = 48;

const RESULT_SEQ = 0;
const SALT_COUNT = 4;
const PREV_SEQ = 8;
export const LINK = 16;
export const DIGEST = LINK + HASH_BYTES;
const SALTS = DIGEST + HASH_BYTES;
export const MAX_SALTS = 252;
const REQUEST = 64 * Math.ceil((SALTS + MAX_SALTS * SALT_BYTES) / 64);
const REQUEST_SEQ = REQUEST;
const ANCHORED = REQUEST + 4;
const POSITION = REQUEST + 8;
const REVISION = REQUEST + 16;
const LENGTHS = REQUEST + 24;
export const ANCHOR = REQUEST + 64;
const FIELDS = ANCHOR + 64;
const FIELD_ROOM = SLOT_BYTES - FIELDS;
/** prevSeq of a result chained from its request's anchor, and of one not chained. */
export const ANCHORED_LINK = -2;
export const NO_LINK = -1;

/** A new event as the write path has it: every field text. */
export type NewChainFields = Omit<ChainFields, 'data' | 'metadata' | 'salts'> & {
  data: string;
  metadata: string;
};

/** An event the thread is to hash, as it reads it from its slot. */
export type SlotEvent = ChainFields & { data: Buffer; metadata: Buffer };

/** Node's Buffer has it (Buffer#write calls it after its checks); @types/node leaves it out. */
type Utf8Writable = Buffer & { utf8Write(text: string, offset: number): number };

/** The ring over one SharedArrayBuffer, from either side. */
export class DigestSlots {
  readonly bytes: Buffer;
  readonly words: Int32Array;
  private readonly floats: Float64Array;

  constructor(readonly memory: SharedArrayBuffer) {
    this.bytes = Buffer.from(memory);
    this.words = new Int32Array(memory);
    this.floats = new Float64Array(memory);
  }

  /** A new ring, every slot empty (a fresh buffer's zeros would read as seq 0's result). */
  static allocate(): DigestSlots {
    const slots = new DigestSlots(new SharedArrayBuffer(SLOTS * SLOT_BYTES));
    for (let slot = 0; slot < SLOTS; slot++) {
      slots.words[(slot * SLOT_BYTES + RESULT_SEQ) >> 2] = -1;
      slots.words[(slot * SLOT_BYTES + REQUEST_SEQ) >> 2] = -1;
    }
    return slots;
  }

  /** Where `seq`'s slot begins. */
  base(seq: number): number {
    // A bit mask, not %: seq may be past 2^31, where % is a floating-point remainder (SLOTS
    // divides 2^32, so the low bits of ToInt32(seq) are those of seq).
    return (seq & (SLOTS - 1)) * SLOT_BYTES;
  }

  // The calling thread's side.

  /**
   * Writes an event (and the link to chain it from, when known) into `seq`'s slot; false,
   * writing nothing that counts, when its text may not fit (a UTF-16 unit is at most 3 UTF-8
   * bytes; a bigger event is hashed where it is). The fields come as arguments, not as an
   * object, on this path of every append.
   */
  writeRequest(
    seq: number,
    e: Omit<NewChainFields, 'metadata' | 'data'>,
    metadata: string,
    data: string,
    anchor: string | undefined,
  ): boolean {
    const { streamName, id, type, recordedAt } = e;
    const most = streamName.length + id.length + type.length + recordedAt.length;
    if (3 * (most + metadata.length + data.length) > FIELD_ROOM) return false;
    const base = this.base(seq);
    const b = this.bytes as Utf8Writable;
    const words = this.words;
    const lengths = (base + LENGTHS) >> 2;
    let at = base + FIELDS;
    // Buffer#write's own checks cost more than these short strings; the room is known.
    at += words[lengths] = b.utf8Write(streamName, at);
    at += words[lengths + 1] = b.utf8Write(id, at);
    at += words[lengths + 2] = b.utf8Write(type, at);
    at += words[lengths + 3] = b.utf8Write(recordedAt, at);
    at += words[lengths + 4] = b.utf8Write(metadata, at);
    words[lengths + 5] = b.utf8Write(data, at);
    this.floats[(base + POSITION) >> 3] = e.position;
    this.floats[(base + REVISION) >> 3] = e.revision;
    words[(base + ANCHORED) >> 2] = anchor === undefined ? 0 : 1;
    if (anchor !== undefined) {
      for (let i = 0; i < HASH_BYTES; i++) b[base + ANCHOR + i] = anchor.charCodeAt(i);
    }
    // Published by the Atomics.store of SUBMITTED that follows (it orders the writes before it).
    words[(base + REQUEST_SEQ) >> 2] = seq | 0;
    return true;
  }

  /** Takes `seq` back from the thread: it skips the slot if it has not begun on it. */
  cancel(seq: number): void {
    Atomics.compareExchange(this.words, (this.base(seq) + REQUEST_SEQ) >> 2, seq | 0, -1);
  }

  /** Whether the thread has written `seq`'s result. */
  hasResult(seq: number): boolean {
    return Atomics.load(this.words, (this.base(seq) + RESULT_SEQ) >> 2) === (seq | 0);
  }

  /** What the result's link was chained from (see the file comment). */
  prevSeq(seq: number): number {
    return this.words[(this.base(seq) + PREV_SEQ) >> 2];
  }

  /** How many bytes of salts the result has. */
  saltBytes(seq: number): number {
    return this.words[(this.base(seq) + SALT_COUNT) >> 2] * SALT_BYTES;
  }

  // The thread's side.

  /** The event in `slot` if it is still `seq` (as int32) and not taken back, else undefined. */
  readRequest(seq: number, slot: number): SlotEvent | undefined {
    const base = slot * SLOT_BYTES;
    const words = this.words;
    if (Atomics.load(words, (base + REQUEST_SEQ) >> 2) !== seq) return undefined;
    const b = this.bytes;
    const lengths = (base + LENGTHS) >> 2;
    // Field by field, with no array or closure per event (this thread's garbage is collected
    // by helper threads the writing thread shares its cores with).
    const a0 = base + FIELDS;
    const a1 = a0 + words[lengths];
    const a2 = a1 + words[lengths + 1];
    const a3 = a2 + words[lengths + 2];
    const a4 = a3 + words[lengths + 3];
    const a5 = a4 + words[lengths + 4];
    return {
      streamName: b.toString('utf8', a0, a1),
      id: b.toString('utf8', a1, a2),
      type: b.toString('utf8', a2, a3),
      recordedAt: b.toString('utf8', a3, a4),
      metadata: b.subarray(a4, a5),
      data: b.subarray(a5, a5 + words[lengths + 5]),
      position: this.floats[(base + POSITION) >> 3],
      revision: this.floats[(base + REVISION) >> 3],
    };
  }

  /** Whether the request in `slot` brought the link to chain from (at ANCHOR). */
  anchored(slot: number): boolean {
    return this.words[(slot * SLOT_BYTES + ANCHORED) >> 2] === 1;
  }

  /** Marks a slot as having no result, before it is written again. */
  clearResult(slot: number): void {
    Atomics.store(this.words, (slot * SLOT_BYTES + RESULT_SEQ) >> 2, -1);
  }

  /**
   * Writes the salts and publishes the result (digest, and link unless `prevSeq` is NO_LINK,
   * already in place); false when there are more salts than a slot holds (the calling thread
   * then hashes the event itself).
   */
  writeResult(seq: number, slot: number, salts: Buffer, prevSeq: number): boolean {
    const base = slot * SLOT_BYTES;
    const count = salts.length / SALT_BYTES;
    if (count > MAX_SALTS) return false;
    salts.copy(this.bytes, base + SALTS);
    this.words[(base + SALT_COUNT) >> 2] = count;
    this.words[(base + PREV_SEQ) >> 2] = prevSeq;
    Atomics.store(this.words, (base + RESULT_SEQ) >> 2, seq);
    return true;
  }
}

/** Views of one slot's result fields, made once per slot and kept (a view costs more to make). */
export class ResultViews {
  readonly link: Buffer;
  readonly digest: Buffer;
  private readonly saltsAt: number;
  private salts: Buffer;

  constructor(slots: DigestSlots, slot: number) {
    const base = slot * SLOT_BYTES;
    this.link = slots.bytes.subarray(base + LINK, base + LINK + HASH_BYTES);
    this.digest = slots.bytes.subarray(base + DIGEST, base + DIGEST + HASH_BYTES);
    this.saltsAt = base + SALTS;
    this.salts = slots.bytes.subarray(this.saltsAt, this.saltsAt);
  }

  /** The salts, `n` bytes. */
  saltsOf(bytes: Buffer, n: number): Buffer {
    if (this.salts.length !== n) this.salts = bytes.subarray(this.saltsAt, this.saltsAt + n);
    return this.salts;
  }
}
