/**
 * `verify`: walks the store's hash chain (or a bundle, offline) and names the first event that
 * was altered, removed or reordered (`export`: export.command.ts).
 */
import * as fs from 'node:fs';
import * as readline from 'node:readline';
import type { EventStore } from '@sessionboxer/event-store';
import {
  BundleVerifier,
  isChainReader,
  publicKeyPath,
  readPublicKey,
  verifyStore,
  type BundleScope,
  type ChainReader,
  type ChainSummary,
} from '@sessionboxer/event-store/chain';
import { verifyFile } from '@sessionboxer/event-store/sqlite';
import { ProgressBar } from './progress';

export interface VerifyReport extends ChainSummary {
  /** What was verified: the store, or the bundle file. */
  source: string;
  bundleProblem: string | null;
  /** A bundle's: what it says it holds, whether the key signed that, what it leaves out. */
  bundle?: {
    scope: BundleScope | null;
    scopeSigned: boolean;
    leftOut: number;
    hiddenValues: number;
  };
  ok: boolean;
}

/** The public key file given, else the installation key's `.pub` beside it, else the key itself. */
export function publicKeyFile(given: string | null, keyFile: string): string {
  if (given) return given;
  const pub = publicKeyPath(keyFile);
  return fs.existsSync(pub) ? pub : keyFile;
}

export function chainOf(store: EventStore): ChainReader {
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
  const { scope, scopeSigned, leftOut, hiddenValues, ...report } = verifier.result();
  return {
    ...report,
    source: bundle,
    bundle: { scope, scopeSigned, leftOut, hiddenValues },
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
  const intact = `intact: ${r.source}: ${r.events} events, ${r.checkpoints} checkpoints, ${head}, ${signed}`;
  return r.bundle ? `${intact}\n${describeBundle(r.bundle)}` : intact;
}

function describeBundle(b: NonNullable<VerifyReport['bundle']>): string {
  const what = b.scope?.session
    ? `session ${b.scope.session}${b.scope.family ? ' and its family' : ''}`
    : 'the whole history';
  const redacted = b.scope?.redacted ? `, redacted (${b.hiddenValues} values hidden)` : '';
  const signed = b.scopeSigned
    ? "exported as such (the manifest is signed with the installation's key)"
    : 'the manifest is not signed (exported without the key): its scope is only stated';
  return `bundle of ${what}${redacted}, ${b.leftOut} other events by digest only; ${signed}`;
}
