/**
 * `verify` over a SQLite store file on every core: each worker recomputes one range of
 * positions from the stored hash before it. That is the same proof as one walk: a stored hash
 * that does not follow from the one before it fails in whichever range holds it, and the
 * problem at the lowest position is the first one. Checkpoints are checked here, against the
 * stored hashes, once every range is done.
 */
import { availableParallelism } from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
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
import type { RangeJob, RangeResult } from './verify-range.worker';

/** Below this many events one range is enough (a worker costs ~50 ms to start). */
const PER_WORKER_MIN = 50_000;

export interface VerifyFileOptions {
  onProgress?: (done: number, total: number) => void;
  /** Default: one per core. */
  workers?: number;
  /** Default 50,000; tests lower it to split small files. */
  minPerWorker?: number;
}

export async function verifyFile(
  file: string,
  publicKey: KeyObject,
  options: VerifyFileOptions = {},
): Promise<ChainSummary> {
  const { onProgress, workers = availableParallelism(), minPerWorker = PER_WORKER_MIN } = options;
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
    const count = Math.max(1, Math.min(workers, Math.floor(head.position / minPerWorker)));
    const size = Math.ceil(head.position / count);
    const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    let done = 0;
    const jobs: RangeJob[] = Array.from({ length: count }, (_, i) => {
      const from = 1 + i * size;
      const prev = from === 1 ? GENESIS_HASH : (hashAt.get(from - 1) ?? null);
      return { file, publicKeyPem, from, to: Math.min(head.position, from + size - 1), prev };
    });
    const results = await Promise.all(
      jobs.map((job) =>
        runRange(job, (n) => {
          done += n;
          onProgress?.(done, head.position);
        }),
      ),
    );
    return merge(results, publicKey, (p) => hashAt.get(p) ?? undefined, head);
  } finally {
    db.close();
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

function runRange(job: RangeJob, onProgress: (n: number) => void): Promise<RangeResult> {
  return new Promise((resolve, reject) => {
    const worker = startWorker(job);
    worker.on('message', (m: { progress?: number; result?: RangeResult }) => {
      if (m.progress !== undefined) onProgress(m.progress);
      if (m.result) resolve(m.result);
    });
    worker.on('error', reject);
    worker.on('exit', (code) => {
      if (code !== 0) reject(new Error(`a verify worker exited with ${code}`));
    });
  });
}

/** The worker file next to this one; TypeScript sources load through swc, as the CLI does. */
function startWorker(job: RangeJob): Worker {
  const ext = path.extname(__filename);
  const file = path.join(__dirname, `verify-range.worker${ext}`);
  if (ext === '.js') return new Worker(file, { workerData: job });
  const register = require.resolve('@swc-node/register');
  const code = `require(${JSON.stringify(register)}); require(${JSON.stringify(file)});`;
  return new Worker(code, { eval: true, workerData: job });
}
