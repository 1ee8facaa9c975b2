/**
 * An audit bundle: JSON lines, every event of the history in position order with its hash, then
 * the manifest as the last line (so an export streams). Data and metadata stay the exact JSON
 * text the chain hashed (a string), so a bundle verifies offline with only the public key.
 *
 *   {"position":1,"streamName":…,"revision":0,"id":…,"type":…,"data":"{…}","metadata":"{…}",
 *    "recordedAt":…,"hash":"<64 hex>"}
 *   …
 *   {"format":"sessionboxer-audit-bundle/1","exportedAt":…,"events":N,"first":1,"last":P,
 *    "head":{"position":P,"hash":…,"signature":…,"keyId":…}}
 */
import type { KeyObject } from 'node:crypto';
import type { ChainedEvent } from './canonical';
import type { CheckpointData } from './checkpoint';
import { ChainVerifier, type ChainSummary } from './verify-chain';

export const BUNDLE_FORMAT = 'sessionboxer-audit-bundle/1';

export interface BundleManifest {
  format: typeof BUNDLE_FORMAT;
  exportedAt: string;
  events: number;
  first: number | null;
  last: number | null;
  /** A checkpoint signing the bundle's last event; null when the exporter had no key. */
  head: CheckpointData | null;
}

export function bundleLine(e: ChainedEvent): string {
  return JSON.stringify({
    ...e,
    data: e.data.toString(),
    metadata: e.metadata.toString(),
    hash: e.hash === null ? null : e.hash.toString('hex'),
  });
}

/** The event a bundle line holds, or why the line is not one. */
export function parseBundleLine(line: string): ChainedEvent | string {
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return 'not JSON';
  }
  const text = ['streamName', 'id', 'type', 'data', 'metadata', 'recordedAt'] as const;
  const ints = ['position', 'revision'] as const;
  for (const k of text) if (typeof v[k] !== 'string') return `${k} is not a string`;
  for (const k of ints) if (!Number.isSafeInteger(v[k])) return `${k} is not an integer`;
  const hash = v.hash;
  if (hash !== null && (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash))) {
    return 'hash is not 64 hex digits';
  }
  return {
    position: v.position as number,
    streamName: v.streamName as string,
    revision: v.revision as number,
    id: v.id as string,
    type: v.type as string,
    data: v.data as string,
    metadata: v.metadata as string,
    recordedAt: v.recordedAt as string,
    hash: hash === null ? null : Buffer.from(hash, 'hex'),
  };
}

/** What verifying a bundle found: the chain's summary, or a bundle that is not well formed. */
export interface BundleReport extends ChainSummary {
  /** A problem with the bundle itself (manifest, a line that is not an event, its head). */
  bundleProblem: string | null;
}

/** Verifies a bundle given line by line (manifest last). */
export class BundleVerifier {
  private manifest: BundleManifest | null = null;
  private readonly chain: ChainVerifier;
  private bundleProblem: string | null = null;
  private lines = 0;

  constructor(publicKey: KeyObject) {
    this.chain = new ChainVerifier(publicKey);
  }

  /** False once something is wrong. */
  add(line: string): boolean {
    if (this.bundleProblem) return false;
    this.lines++;
    if (this.manifest !== null) {
      this.bundleProblem = `line ${this.lines} comes after the manifest, which must be last`;
      return false;
    }
    if (line.startsWith('{"format"')) {
      const m = parseJson(line) as Partial<BundleManifest> | null;
      if (m === null || m.format !== BUNDLE_FORMAT) {
        this.bundleProblem = `line ${this.lines} is not a ${BUNDLE_FORMAT} manifest`;
        return false;
      }
      this.manifest = m as BundleManifest;
      return true;
    }
    const e = parseBundleLine(line);
    if (typeof e === 'string') {
      this.bundleProblem = `line ${this.lines} is not an event: ${e}`;
      return false;
    }
    return this.chain.add(e);
  }

  result(): BundleReport {
    const summary = this.chain.result();
    const m = this.manifest;
    let bundleProblem = this.bundleProblem;
    if (bundleProblem === null && summary.problem === null) {
      if (m === null) bundleProblem = 'the bundle has no manifest (its last line)';
      else if (m.events !== summary.events) {
        bundleProblem = `the manifest says ${m.events} events, the bundle holds ${summary.events}`;
      } else if (m.head === null || m.head === undefined) {
        bundleProblem = 'the manifest has no signed head: nothing proves where it came from';
      } else if (m.head.position !== summary.head?.position) {
        bundleProblem = `the signed head is at position ${m.head.position}, the bundle ends at ${summary.head?.position ?? 'nothing'}`;
      } else {
        const bad = this.chain.checkpointProblem(m.head);
        if (bad) bundleProblem = `the manifest's head: ${bad.kind}: ${bad.detail}`;
      }
    }
    const signedUpTo = bundleProblem === null && m?.head ? m.head.position : summary.signedUpTo;
    return { ...summary, signedUpTo, bundleProblem };
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
