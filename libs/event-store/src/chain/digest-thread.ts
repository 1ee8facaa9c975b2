/**
 * A second thread for the chain's hashing. When appends come in bursts, most of what the hash
 * chain costs the writing thread is making each event's salted commitments and digest
 * (commitment.ts): four sha256 calls and a scan of the data. These depend on the event alone
 * (its position included), not on the event before it, so they can be made ahead: an append
 * hands its events over as it is queued, with the positions they will take if the appends
 * queued before it all commit, and by the time its batch's transaction inserts them the digests
 * are usually made. The thread also chains each digest on from the link it made before (or
 * from the head the writer hands over with the first event after a batch), and the writer
 * binds that link as it lies when it was chained from the head the writer really has: then the
 * writing thread makes no sha256 call at all (two threads calling Node's one-shot hash slow
 * each other down, measured 0.3 → 0.5 µs a call).
 *
 * Nothing waits for the thread (except a short spin while it is on the very event asked for):
 * an event not handed over (too big, ring full, thread starting or gone), a guess that did not
 * hold (an append before it was refused, another process wrote) or a digest not made yet is
 * hashed on the writing thread as before. Both make the same commitment, so which one made it
 * is invisible in the store. One thread per process, shared by its stores; it stops a while
 * after the last store using it is closed.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startWorkerBeside } from '../worker-beside';
import {
  ANCHORED_LINK,
  CONTROL_WORDS,
  NO_LINK,
  DONE,
  DigestSlots,
  READY,
  ResultViews,
  SLEEPING,
  SLOTS,
  STOP,
  SUBMITTED,
  type NewChainFields,
} from './digest-slots';
import type { DigestWorkerData } from './digest-thread.worker';

/** How long the thread outlives its last store (a process that reopens one keeps it warm). */
const LINGER_MS = 10_000;
/** How long the writing thread spins for a digest the thread is making right now. */
const SPIN_MS = 0.05;
/** How many events are handed over before the thread is told (see publish). */
const PUBLISH_EVERY = 8;
const FREE = -1;
const EMPTY = Buffer.alloc(0);

/** An event's result as the thread made it (views into the shared ring). */
export interface Made {
  seq: number;
  salts: Buffer;
  digest: Buffer;
  /** Its link, when the thread chained it from the head the caller has. */
  link: Buffer | undefined;
}

/** Whether a second thread can help at all: not on a single core. */
export function digestThreadUseful(): boolean {
  return availableParallelism() > 1;
}

export class DigestThread {
  private static shared: DigestThread | undefined;

  private readonly slots = DigestSlots.allocate();
  private readonly controlMemory = new SharedArrayBuffer(CONTROL_WORDS * 4);
  private readonly control = new Int32Array(this.controlMemory);
  /** Per slot, the seq the writing thread may still take from it, or FREE. */
  private readonly live = new Float64Array(SLOTS).fill(FREE);
  private readonly views: (ResultViews | undefined)[] = new Array<ResultViews | undefined>(SLOTS);
  private readonly result: Made = { seq: -1, salts: EMPTY, digest: EMPTY, link: undefined };
  private readonly worker: Worker;
  /** Settles once the thread takes events (or has ended): until then none are handed over. */
  readonly ready: Promise<void>;
  private next = 0;
  /** Events handed over that SUBMITTED does not count yet. */
  private unpublished = 0;
  /** The thread's sleep (its SLEEPING) this side last woke it from. */
  private woken = 0;
  /** DONE as last read. */
  private seenDone = 0;
  private seenReady = false;
  private users = 0;
  private linger: NodeJS.Timeout | undefined;
  private gone = false;

  private constructor() {
    const data: DigestWorkerData = {
      digestThread: true,
      slots: this.slots.memory,
      control: this.controlMemory,
    };
    this.worker = startWorker(data);
    this.worker.unref();
    this.ready = new Promise((resolve) => {
      this.worker.once('message', () => resolve());
      this.worker.once('exit', () => resolve());
    });
    this.worker.on('error', () => this.end());
    this.worker.on('exit', () => this.end());
  }

  /** Whether `seq`'s result is there (for tests: nothing on the write path waits for it). */
  made(seq: number): boolean {
    return this.live[seq & (SLOTS - 1)] === seq && this.slots.hasResult(seq);
  }

  /** The process's thread, started if needed; give it back with `release`. */
  static acquire(): DigestThread {
    let thread = DigestThread.shared;
    if (!thread || thread.gone) thread = DigestThread.shared = new DigestThread();
    thread.users++;
    clearTimeout(thread.linger);
    return thread;
  }

  release(): void {
    if (--this.users > 0 || this.gone) return;
    this.linger = setTimeout(() => this.stop(), LINGER_MS);
    this.linger.unref();
  }

  /** Ends the thread now (its users hash on their own thread from then on). */
  stop(): void {
    clearTimeout(this.linger);
    Atomics.store(this.control, STOP, 1);
    Atomics.notify(this.control, SUBMITTED);
    this.end();
    void this.worker.terminate();
  }

  /**
   * Hands `e` over (with `anchor`, the link it chains from, when the caller knows it); its
   * seq for `take`, or -1 when it was not (see the file comment).
   */
  submit(
    e: Omit<NewChainFields, 'metadata' | 'data'>,
    metadata: string,
    data: string,
    anchor: string | undefined,
  ): number {
    const seq = this.next;
    const slot = seq & (SLOTS - 1);
    if (this.gone || this.live[slot] !== FREE || !this.isReady()) return -1;
    // The thread may still be reading what the slot held SLOTS seqs ago: it must have passed
    // it (DONE is read again only when what was last seen of it does not say so).
    const oldest = (seq - SLOTS + 1) | 0;
    if (((this.seenDone - oldest) | 0) < 0) {
      this.seenDone = Atomics.load(this.control, DONE);
      if (((this.seenDone - oldest) | 0) < 0) return -1;
    }
    if (!this.slots.writeRequest(seq, e, metadata, data, anchor)) return -1;
    this.live[slot] = seq;
    this.next = seq + 1;
    // Told to the thread every PUBLISH_EVERY events, and by `publish` (every line the
    // thread reads SUBMITTED from is one the writing thread must take back to write it).
    if (++this.unpublished >= PUBLISH_EVERY || this.sleeping()) this.publish();
    return seq;
  }

  /**
   * Tells the thread of everything handed over so far, and wakes it if it sleeps: once per
   * sleep (a wake-up is a syscall, and the thread takes a while to say it is awake). Once is
   * enough: SUBMITTED is stored before SLEEPING is read, so a thread that had not yet begun to
   * wait finds SUBMITTED moved and does not sleep.
   */
  publish(): void {
    if (this.unpublished === 0) return;
    this.unpublished = 0;
    Atomics.store(this.control, SUBMITTED, this.next | 0);
    const sleep = Atomics.load(this.control, SLEEPING);
    if (sleep !== 0 && sleep !== this.woken) {
      this.woken = sleep;
      Atomics.notify(this.control, SUBMITTED);
    }
  }

  /** Whether the thread sleeps and has not been woken from this sleep yet. */
  private sleeping(): boolean {
    const sleep = Atomics.load(this.control, SLEEPING);
    return sleep !== 0 && sleep !== this.woken;
  }

  /**
   * `seq`'s result, or undefined when it is not made (the caller hashes the event itself).
   * `link` is set when the thread chained it from the caller's head: the head is the link of
   * `headSeq` (the int32 seq whose link it bound last, NO_LINK when its head is not one), or,
   * when `anchorHeld`, the anchor this seq was handed over with. Its views are good until the
   * next `submit` (which may hand the slot out again). Either way `seq` is done with.
   */
  take(seq: number, headSeq: number, anchorHeld: boolean): Made | undefined {
    const slot = seq & (SLOTS - 1);
    if (this.live[slot] !== seq) return undefined;
    let made = this.slots.hasResult(seq);
    if (!made && Atomics.load(this.control, DONE) === (seq | 0)) made = this.spinFor(seq);
    if (!made) {
      this.drop(seq);
      return undefined;
    }
    this.live[slot] = FREE;
    const views = (this.views[slot] ??= new ResultViews(this.slots, slot));
    const from = this.slots.prevSeq(seq);
    const chained = from === ANCHORED_LINK ? anchorHeld : from !== NO_LINK && from === headSeq;
    const result = this.result;
    result.seq = seq;
    result.salts = views.saltsOf(this.slots.bytes, this.slots.saltBytes(seq));
    result.digest = views.digest;
    result.link = chained ? views.link : undefined;
    return result;
  }

  /** Gives `seq` up without its digest (its append did not write it). */
  drop(seq: number): void {
    const slot = seq & (SLOTS - 1);
    if (this.live[slot] !== seq) return;
    this.slots.cancel(seq);
    this.live[slot] = FREE;
  }

  private isReady(): boolean {
    if (!this.seenReady) this.seenReady = Atomics.load(this.control, READY) === 1;
    return this.seenReady;
  }

  private spinFor(seq: number): boolean {
    const until = performance.now() + SPIN_MS;
    while (performance.now() < until) {
      if (this.slots.hasResult(seq)) return true;
    }
    return this.slots.hasResult(seq);
  }

  private end(): void {
    this.gone = true;
    if (DigestThread.shared === this) DigestThread.shared = undefined;
  }
}

function startWorker(data: DigestWorkerData): Worker {
  return startWorkerBeside(__filename, 'digest-thread.worker', data);
}
