/**
 * `verify` and `export` over a store that keeps the chain: both walk `$all` in pages.
 */
import type { KeyObject } from 'node:crypto';
import type { AuditKey } from './audit-key';
import { bundleLine, BUNDLE_FORMAT, type BundleManifest } from './bundle';
import type { ChainReader } from './chain-reader';
import { signCheckpoint, type CheckpointData } from './checkpoint';
import { ChainVerifier, type ChainSummary } from './verify-chain';

const PAGE = 5_000;

/** Told after each page: events walked, and the head position when the walk began. */
export type WalkProgress = (done: number, total: number) => void;

/** Recomputes the whole chain and checks every checkpoint; stops at the first problem. */
export async function verifyStore(
  store: ChainReader,
  publicKey: KeyObject,
  onProgress?: WalkProgress,
): Promise<ChainSummary> {
  const verifier = new ChainVerifier(publicKey);
  const total = (await store.chainHead())?.position ?? 0;
  let from = 1;
  let done = 0;
  for (;;) {
    const page = await store.readChain(from, PAGE);
    for (const e of page) if (!verifier.add(e)) return verifier.result();
    done += page.length;
    onProgress?.(done, Math.max(total, done));
    if (page.length < PAGE) return verifier.result();
    from = page[page.length - 1].position + 1;
  }
}

/**
 * Writes the whole history as a bundle (see bundle.ts) through `write`. The manifest's head is
 * signed now when the installation's key is at hand, else it is the last checkpoint's, and the
 * bundle stops at the position that checkpoint signs. Returns the manifest.
 */
export async function exportBundle(
  store: ChainReader,
  key: AuditKey | null,
  lastCheckpoint: CheckpointData | null,
  write: (line: string) => Promise<void>,
  onProgress?: WalkProgress,
): Promise<BundleManifest> {
  const head = await store.chainHead();
  let signed: CheckpointData | null = null;
  if (head && head.hash && key) {
    signed = signCheckpoint(key.privateKey, key.publicKey, head.position, head.hash);
  } else if (lastCheckpoint) {
    signed = lastCheckpoint;
  }
  const last = signed?.position ?? head?.position ?? 0;
  let from = 1;
  let events = 0;
  let first: number | null = null;
  while (from <= last) {
    const page = (await store.readChain(from, PAGE)).filter((e) => e.position <= last);
    if (page.length === 0) break;
    first ??= page[0].position;
    for (const e of page) await write(`${bundleLine(e)}\n`);
    events += page.length;
    from = page[page.length - 1].position + 1;
    onProgress?.(events, last);
  }
  const manifest: BundleManifest = {
    format: BUNDLE_FORMAT,
    exportedAt: new Date().toISOString(),
    events,
    first,
    last: events > 0 ? last : null,
    head: signed,
  };
  await write(`${JSON.stringify(manifest)}\n`);
  return manifest;
}
