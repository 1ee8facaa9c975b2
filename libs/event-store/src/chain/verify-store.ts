/**
 * `verify` over a store that keeps the chain: walks `$all` in pages (export: export-bundle.ts).
 */
import type { KeyObject } from 'node:crypto';
import type { ChainReader } from './chain-reader';
import { ChainVerifier, type ChainSummary } from './verify-chain';

// Small pages: a page of 5,000 1 KB events outlives the young generation and costs a full GC
// (measured: ~90k events per CPU-second at 5,000, ~125k at 1,000).
const PAGE = 1_000;

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
