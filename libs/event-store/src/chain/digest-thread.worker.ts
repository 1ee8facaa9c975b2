/**
 * The digest thread (digest-thread.ts starts it): takes the events handed over in the shared
 * ring one after another, makes each one's salts and digest, and chains the digest on from the
 * link it made for the event before (the one handed over with the position before), or from
 * the anchor an event brings (the calling thread's head); it writes all of that back. The
 * calling thread uses the link only if it was chained from the head it really has.
 *
 * When it runs out it spins a little (see waitForMore), then sleeps on SUBMITTED until more
 * come or it is stopped.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { HASH_BYTES } from './canonical';
import { commitInto, linkInto } from './commitment';
import * as layout from './digest-slots';

export interface DigestWorkerData {
  digestThread: true;
  slots: SharedArrayBuffer;
  control: SharedArrayBuffer;
}

const { DigestSlots, SUBMITTED, DONE, READY, STOP, SLEEPING, SLOTS, SLOT_BYTES } = layout;
const { ANCHOR, LINK, DIGEST, ANCHORED_LINK, NO_LINK } = layout;

/** How the thread waits for more (see waitForMore). */
const SPIN_MS = 0.1;
const NAP_MS = 0.1;
const NAPS = 100;
/** Which sleep this is (SLEEPING holds it while the thread sleeps, 0 while it is awake). */
let episode = 0;

function serve(data: DigestWorkerData): void {
  const slots = new DigestSlots(data.slots);
  const bytes = slots.bytes;
  const control = new Int32Array(data.control);
  /** The link made last, its seq, and the position the next event must have to follow it. */
  const prev = Buffer.alloc(HASH_BYTES);
  let prevSeq = NO_LINK;
  let chainNext = -1;
  let next = Atomics.load(control, DONE);
  Atomics.store(control, READY, 1);
  parentPort?.postMessage('ready');
  for (;;) {
    if (Atomics.load(control, STOP) === 1) return;
    if (Atomics.load(control, SUBMITTED) === next && !waitForMore(control, next)) continue;
    const slot = next & (SLOTS - 1);
    const base = slot * SLOT_BYTES;
    const event = slots.readRequest(next, slot);
    if (event) {
      slots.clearResult(slot);
      const salts = commitInto(event, bytes, base + DIGEST);
      if (slots.anchored(slot)) {
        bytes.copy(prev, 0, base + ANCHOR, base + ANCHOR + HASH_BYTES);
        prevSeq = ANCHORED_LINK;
        chainNext = event.position;
      }
      let from = NO_LINK;
      if (event.position === chainNext) {
        from = prevSeq;
        linkInto(prev, 0, bytes, base + DIGEST, bytes, base + LINK);
        bytes.copy(prev, 0, base + LINK, base + LINK + HASH_BYTES);
        prevSeq = next;
        chainNext = event.position + 1;
      } else {
        chainNext = -1;
      }
      if (!slots.writeResult(next, slot, salts, from)) chainNext = -1;
    }
    next = (next + 1) | 0;
    Atomics.store(control, DONE, next);
  }
}

/**
 * Waits for SUBMITTED to move past `next`; true once it has. A burst's appends are handed over
 * tens of microseconds apart, and bursts come every few milliseconds (a commit's fsync apart),
 * while waking a sleeping thread costs the writing thread a syscall, and on a virtual machine a
 * wake-up of the other vCPU (measured ~20 µs here). So the thread spins for SPIN_MS, then
 * looks again every NAP_MS on its own (a timed wait: nobody has to wake it) for up to NAPS
 * times, and only then sleeps until woken (SLEEPING says so, and the writing thread wakes it).
 */
function waitForMore(control: Int32Array, next: number): boolean {
  const until = performance.now() + SPIN_MS;
  do {
    for (let i = 0; i < 256; i++) if (Atomics.load(control, SUBMITTED) !== next) return true;
  } while (performance.now() < until);
  for (let nap = 0; nap < NAPS; nap++) {
    Atomics.wait(control, SUBMITTED, next, NAP_MS);
    if (Atomics.load(control, SUBMITTED) !== next) return true;
    if (Atomics.load(control, STOP) === 1) return false;
  }
  episode = (episode % 0x7fffffff) + 1;
  Atomics.store(control, SLEEPING, episode);
  Atomics.wait(control, SUBMITTED, next);
  Atomics.store(control, SLEEPING, 0);
  return Atomics.load(control, SUBMITTED) !== next;
}

const data = workerData as Partial<DigestWorkerData> | null;
if (data?.digestThread === true) serve(data as DigestWorkerData);
