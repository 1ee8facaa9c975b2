/**
 * `verify`: walks the store's hash chain (or a bundle, offline) and names the first event that
 * was altered, removed or reordered; `export`: writes the whole history as a bundle.
 */
import * as fs from 'node:fs';
import * as readline from 'node:readline';
import type { EventStore } from '@sessionboxer/event-store';
import {
  BundleVerifier,
  CHECKPOINT_STREAM,
  exportBundle,
  isChainReader,
  loadOrCreateAuditKey,
  publicKeyPath,
  readPublicKey,
  verifyStore,
  type BundleManifest,
  type ChainReader,
  type ChainSummary,
  type CheckpointData,
} from '@sessionboxer/event-store/chain';
import { verifyFile } from '@sessionboxer/event-store/sqlite';
import { ProgressBar } from './progress';

export interface VerifyReport extends ChainSummary {
  /** What was verified: the store, or the bundle file. */
  source: string;
  bundleProblem: string | null;
  ok: boolean;
}

/** The public key file given, else the installation key's `.pub` beside it, else the key itself. */
export function publicKeyFile(given: string | null, keyFile: string): string {
  if (given) return given;
  const pub = publicKeyPath(keyFile);
  return fs.existsSync(pub) ? pub : keyFile;
}

function chainOf(store: EventStore): ChainReader {
  if (!isChainReader(store)) throw new Error('this event store keeps no hash chain to verify');
  return store;
}

/** Verifies the store; a SQLite file (`sqliteFile`) on every core, in ranges. */
export async function verifyStoreCommand(
  store: EventStore,
  keyFile: string,
  source: string,
  sqliteFile: string | null,
): Promise<VerifyReport> {
  const publicKey = readPublicKey(keyFile);
  const bar = new ProgressBar('verifying');
  const onProgress = (d: number, t: number): void => bar.update(d, t);
  const summary = sqliteFile
    ? await verifyFile(sqliteFile, publicKey, { onProgress })
    : await verifyStore(chainOf(store), publicKey, onProgress);
  bar.done();
  return { ...summary, source, bundleProblem: null, ok: summary.problem === null };
}

export async function verifyBundleCommand(bundle: string, keyFile: string): Promise<VerifyReport> {
  const publicKey = readPublicKey(keyFile);
  const verifier = new BundleVerifier(publicKey);
  const lines = readline.createInterface({
    input: fs.createReadStream(bundle),
    crlfDelay: Infinity,
  });
  for await (const line of lines) {
    if (line.length > 0 && !verifier.add(line)) break;
  }
  lines.close();
  const report = verifier.result();
  return {
    ...report,
    source: bundle,
    ok: report.problem === null && report.bundleProblem === null,
  };
}

export function formatVerifyReport(r: VerifyReport): string {
  if (r.problem) {
    const p = r.problem;
    return `TAMPERED: ${r.source}: the first bad event is at position ${p.position} (stream ${p.streamName}, type ${p.type}): ${p.kind}: ${p.detail}\n${r.events} events before it verified`;
  }
  if (r.bundleProblem) return `NOT VERIFIED: ${r.source}: ${r.bundleProblem}`;
  const head = r.head ? `head at position ${r.head.position}` : 'no events';
  const signed =
    r.signedUpTo === null
      ? 'no signed checkpoint yet'
      : `signed up to position ${r.signedUpTo}${r.head && r.head.position > r.signedUpTo ? ` (${r.head.position - r.signedUpTo} later events chained, not yet signed)` : ''}`;
  return `intact: ${r.source}: ${r.events} events, ${r.checkpoints} checkpoints, ${head}, ${signed}`;
}

/** Writes the whole history to `out` as a bundle, its head signed with the key when it is there. */
export async function exportCommand(
  store: EventStore,
  keyFile: string,
  out: string,
): Promise<BundleManifest> {
  const chain = chainOf(store);
  const key =
    fs.existsSync(keyFile) && !keyFile.endsWith('.pub') ? loadOrCreateAuditKey(keyFile) : null;
  const [last] = await store.readStream(CHECKPOINT_STREAM, { direction: 'backwards', maxCount: 1 });
  const sink = fs.createWriteStream(out, { mode: 0o600 });
  const bar = new ProgressBar('exporting');
  const write = (line: string): Promise<void> =>
    sink.write(line) ? Promise.resolve() : new Promise((resolve) => sink.once('drain', resolve));
  const manifest = await exportBundle(
    chain,
    key,
    last ? (last.data as CheckpointData) : null,
    write,
    (d, t) => bar.update(d, t),
  );
  bar.done();
  await new Promise<void>((resolve, reject) =>
    sink.end((e?: Error | null) => (e ? reject(e) : resolve())),
  );
  return manifest;
}
