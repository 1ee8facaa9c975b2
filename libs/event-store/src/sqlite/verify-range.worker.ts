/**
 * A worker thread of a parallel verify (verify-file.ts): opens the file once, says it is
 * ready, then verifies the ranges it is sent one at a time (`{ job }` → progress messages,
 * then `{ result }`) until it is terminated.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createPublicKey } from 'node:crypto';
import { RangeVerifier, type RangeJob, type RangeResult } from './verify-range';

export interface RangeWorkerData {
  verifyRangeWorker: true;
  file: string;
  publicKeyPem: string;
}

export type FromRangeWorker = { ready: true } | { progress: number } | { result: RangeResult };

function serve(data: RangeWorkerData): void {
  const port = parentPort;
  if (!port) return;
  const verifier = new RangeVerifier(data.file, createPublicKey(data.publicKeyPem));
  const send = (m: FromRangeWorker): void => port.postMessage(m);
  port.on('message', (m: { job: RangeJob }) => {
    send({ result: verifier.runAll(m.job, (progress) => send({ progress })) });
  });
  send({ ready: true });
}

const data = workerData as Partial<RangeWorkerData> | null;
if (data?.verifyRangeWorker === true) serve(data as RangeWorkerData);
