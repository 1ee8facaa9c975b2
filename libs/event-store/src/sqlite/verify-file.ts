/**
 * `verify` over a SQLite store file on every core: the positions are cut into ranges, a few
 * per thread, and this thread and worker threads take them one at a time, each recomputing its
 * range from the stored hash before it. That is the same proof as one walk: a stored hash
 * that does not follow from the one before it fails in whichever range holds it, and the
 * problem at the lowest position is the first one (no range after it is handed out once it is
 * found). Checkpoints are checked here, against the stored hashes, once the ranges are done.
 *
 * This thread starts at once and workers join as they come up: one takes 0.5-1 s to start
 * (it loads the TypeScript sources through swc), which was a sixth of a million-event verify
 * when every range waited for a worker; and a thread that starts late or runs slow (a loaded
 * machine) takes fewer ranges.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startWorkerBeside } from '../worker-beside';
import type { KeyObject } from 'node:crypto';
import Database from 'better-sqlite3';
import { GENESIS_HASH } from '../chain/canonical';
import type { CheckpointData } from '../chain/checkpoint';
import {
  checkpointVerdict,
  parseJson,
  RECENT,
  type ChainSummary,
  type ChainProblem,
} from '../chain/verify-chain';
import { RangeVerifier, type RangeJob, type RangeResult } from './verify-range';
import type { FromRangeWorker, RangeWorkerData } from './verify-range.worker';

/** No range is smaller (a worker's start is worth it only for this many events or more). */
const PER_RANGE_MIN = 50_000;
/** Ranges per thread: enough that a thread starting late or running slow is made up for. */
const RANGES_PER_THREAD = 4;
/** Pages this thread verifies between looks at its workers' messages. */
const PAGES_PER_TURN = 4;

export interface VerifyFileOptions {
  onProgress?: (done: number, total: number) => void;
  /** Threads in all, this one included. Default: one per core. */
  workers?: number;
  /** The smallest range, default 50,000; tests lower it to split small files. */
  minPerWorker?: number;
  /** Default true; false leaves every range to worker threads (tests check them so). */
  useThisThread?: boolean;
}

export async function verifyFile(
  file: string,
  publicKey: KeyObject,
  options: VerifyFileOptions = {},
): Promise<ChainSummary> {
  const { onProgress, workers = availableParallelism(), minPerWorker = PER_RANGE_MIN } = options;
  const useThisThread = options.useThisThread ?? true;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const head = db
      .prepare<[], { position: number; hash: Buffer | null }>(
        'SELECT position, hash FROM events ORDER BY position DESC LIMIT 1',
      )
      .get();
    if (!head) return { events: 0, checkpoints: 0, head: null, signedUpTo: null, problem: null };
    const hashAt = db
      .prepare<[number], Buffer | null>('SELECT hash FROM events WHERE position = ?')
      .pluck();
    const threads = Math.max(1, workers);
    const perThread = Math.ceil(head.position / (threads * RANGES_PER_THREAD));
    const size = Math.max(1, minPerWorker, perThread);
    const jobs: RangeJob[] = [];
    for (let from = 1; from <= head.position; from += size) {
      const prev = from === 1 ? GENESIS_HASH : (hashAt.get(from - 1) ?? null);
      jobs.push({ from, to: Math.min(head.position, from + size - 1), prev });
    }
    let done = 0;
    const progress = (n: number): void => {
      done += n;
      onProgress?.(done, head.position);
    };
    const own = useThisThread ? 1 : 0;
    const started = Math.min(threads - own, jobs.length - own);
    const results = await runRanges(file, publicKey, jobs, { own, workers: started, progress });
    return merge(results, publicKey, (p) => hashAt.get(p) ?? undefined, head);
  } finally {
    db.close();
  }
}

/**
 * Hands the ranges out in order to this thread (`own`) and `workers` worker threads; resolves
 * with every range's result up to the first that found a problem.
 */
function runRanges(
  file: string,
  publicKey: KeyObject,
  jobs: RangeJob[],
  how: { own: number; workers: number; progress: (n: number) => void },
): Promise<RangeResult[]> {
  const results = new Array<RangeResult | undefined>(jobs.length);
  let next = 0;
  let last = jobs.length - 1;
  let settled = false;
  const threads: Worker[] = [];
  return new Promise<RangeResult[]>((resolve, reject) => {
    const finish = (error?: Error): void => {
      if (settled) return;
      settled = true;
      void Promise.all(threads.map((w) => w.terminate())).then(() => {
        if (error === undefined) resolve(results.slice(0, last + 1) as RangeResult[]);
        else reject(error);
      });
    };
    const take = (): number => (settled || next > last ? -1 : next++);
    const record = (i: number, r: RangeResult): void => {
      results[i] = r;
      if (r.problem && i < last) last = i;
      for (let k = 0; k <= last; k++) if (results[k] === undefined) return;
      finish();
    };
    const data: RangeWorkerData = {
      verifyRangeWorker: true,
      file,
      publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    };
    for (let k = 0; k < how.workers; k++) {
      const worker = startWorker(data);
      threads.push(worker);
      let current = -1;
      const give = (): void => {
        current = take();
        if (current >= 0) worker.postMessage({ job: jobs[current] });
      };
      worker.on('message', (m: FromRangeWorker) => {
        if (settled) return;
        if ('ready' in m) give();
        else if ('progress' in m) how.progress(m.progress);
        else {
          record(current, m.result);
          give();
        }
      });
      worker.on('error', finish);
      worker.on('exit', (code) => finish(new Error(`a verify worker exited with ${code}`)));
    }
    if (how.own === 1)
      void verifyHere(file, publicKey, jobs, take, record, how.progress).catch(finish);
  });
}

/** This thread's share: ranges as `take` gives them, a few pages between looks at messages. */
async function verifyHere(
  file: string,
  publicKey: KeyObject,
  jobs: RangeJob[],
  take: () => number,
  record: (i: number, r: RangeResult) => void,
  progress: (n: number) => void,
): Promise<void> {
  const verifier = new RangeVerifier(file, publicKey);
  try {
    for (let i = take(); i >= 0; i = take()) {
      const steps = verifier.run(jobs[i], progress);
      let pages = 0;
      for (let step = steps.next(); ; step = steps.next()) {
        if (step.done) {
          record(i, step.value);
          break;
        }
        if (++pages % PAGES_PER_TURN === 0) await new Promise((r) => setImmediate(r));
      }
    }
  } finally {
    verifier.close();
  }
}

function merge(
  results: RangeResult[],
  publicKey: KeyObject,
  storedHash: (position: number) => Buffer | undefined,
  head: { position: number; hash: Buffer | null },
): ChainSummary {
  let problem: ChainProblem | null = null;
  let events = 0;
  for (const r of results) {
    events += r.events;
    if (r.problem) {
      problem = r.problem;
      break;
    }
  }
  let checkpoints = 0;
  let signedUpTo: number | null = null;
  for (const c of results.flatMap((r) => r.checkpoints)) {
    if (problem && c.position >= problem.position) break;
    const data = parseJson(c.data);
    const hashAt = (p: number) =>
      p < c.position && p > c.position - RECENT ? storedHash(p) : undefined;
    const bad = checkpointVerdict(data, publicKey, hashAt);
    if (bad) {
      problem = { position: c.position, streamName: c.streamName, type: c.type, ...bad };
      events = c.position - 1;
      break;
    }
    checkpoints++;
    signedUpTo = (data as CheckpointData).position;
  }
  // As one walk reports it: the last event whose hash checked out (a bad checkpoint's own
  // hash did; positions before the first problem follow each other from 1).
  const lastGood = !problem
    ? head.position
    : problem.kind === 'bad signature' || problem.kind === 'checkpoint mismatch'
      ? problem.position
      : events;
  const lastHash = lastGood >= 1 ? storedHash(lastGood) : undefined;
  const last = lastHash ? { position: lastGood, hash: lastHash.toString('hex') } : null;
  return { events, checkpoints, head: last, signedUpTo, problem };
}

function startWorker(data: RangeWorkerData): Worker {
  return startWorkerBeside(__filename, 'verify-range.worker', data);
}
