/**
 * An audit bundle: JSON lines in position order, then the manifest as the last line (so an
 * export streams). Four kinds of line:
 *
 *   an event, whole: {"position":1,"streamName":…,"revision":0,"id":…,"type":…,"data":"{…}",
 *     "metadata":"{…}","recordedAt":…,"hash":"<hex>","salts":"<hex>",
 *     "hidden":{"leaves":{"3":"<hex>"},"metadata":"<hex>"}}
 *     data and metadata are the exact JSON text stored, except that a hidden value reads
 *     "[redacted]" (its commitment in `hidden.leaves`, its salt zeroed) and hidden metadata is
 *     null (its commitment in `hidden.metadata`). No salts: a schema-2 event (whole text).
 *   an event left out: {"position":7,"digest":"<hex>"} (schema 3's digest, commitment.ts)
 *   a segment: {"segment":120,"prev":"<hex>"}: the lines go on at position 120, after the
 *     stated hash of 119 (a bundle of one session skips what lies between its events)
 *   the manifest: {"format":"sessionboxer-audit-bundle/2","exportedAt":…,"scope":{…},
 *     "events":N,"leftOut":M,"hiddenValues":K,"segments":S,"first":…,"last":P,
 *     "head":{"position":P,"hash":…,"signature":…,"keyId":…},"signature":…|null}
 *
 * `head` signs the chain at the last position; `signature` (ed25519, the same key) signs the
 * sha256 of every line before the manifest and the manifest without it, so a bundle says
 * what it was exported as (which session, redacted or not). Format 1 bundles (the whole
 * history, no segments) verify too.
 */
import { createHash, sign, verify, type KeyObject } from 'node:crypto';
import type { ChainedEvent } from './canonical';
import type { Hidden } from './commitment';
import { keyIdOf, type CheckpointData } from './checkpoint';
import { ChainVerifier, type ChainSummary } from './verify-chain';

export const BUNDLE_FORMAT = 'sessionboxer-audit-bundle/2';
const FORMATS: readonly string[] = ['sessionboxer-audit-bundle/1', BUNDLE_FORMAT];
export const REDACTED = '[redacted]';
const SIGNED_TAG = Buffer.from('sessionboxer-bundle-v2', 'utf8');

export interface BundleScope {
  /** The session exported, null for the whole history. */
  session: string | null;
  /** With its children (and theirs). */
  family: boolean;
  redacted: boolean;
}

export interface BundleManifest {
  format: string;
  exportedAt: string;
  scope?: BundleScope;
  /** Events given whole. */
  events: number;
  leftOut?: number;
  hiddenValues?: number;
  segments?: number;
  first: number | null;
  last: number | null;
  /** A checkpoint signing the bundle's last position; null when the exporter had no key. */
  head: CheckpointData | null;
  signature?: string | null;
}

/** A bundle line's event: whole (with what it hides), or left out (its digest). */
export type BundleEntry =
  | { kind: 'event'; event: ChainedEvent; hidden?: Hidden }
  | { kind: 'digest'; position: number; digest: Buffer }
  | { kind: 'segment'; position: number; prev: Buffer };

const hex = (b: Buffer): string => b.toString('hex');

/** A whole event's line; `dataText`/`hidden`/`salts` as an export with redaction made them. */
export function bundleLine(
  e: ChainedEvent,
  redacted?: { data: string; metadata: string | null; salts: Buffer; hidden: Hidden },
): string {
  const line: Record<string, unknown> = {
    position: e.position,
    streamName: e.streamName,
    revision: e.revision,
    id: e.id,
    type: e.type,
    data: redacted ? redacted.data : e.data.toString(),
    metadata: redacted ? redacted.metadata : e.metadata.toString(),
    recordedAt: e.recordedAt,
    hash: e.hash === null ? null : hex(e.hash),
  };
  const salts = redacted?.salts ?? e.salts;
  if (salts) line.salts = hex(salts);
  const hidden = redacted?.hidden;
  if (hidden && (hidden.leaves?.size || hidden.metadata)) {
    const leaves = Object.fromEntries([...(hidden.leaves ?? [])].map(([i, c]) => [i, hex(c)]));
    line.hidden = { leaves, ...(hidden.metadata ? { metadata: hex(hidden.metadata) } : {}) };
  }
  return JSON.stringify(line);
}

export function digestLine(position: number, digest: Buffer): string {
  return JSON.stringify({ position, digest: hex(digest) });
}

export function segmentLine(position: number, prev: Buffer): string {
  return JSON.stringify({ segment: position, prev: hex(prev) });
}

const HEX64 = /^[0-9a-f]{64}$/;
const isHash = (v: unknown): v is string => typeof v === 'string' && HEX64.test(v);

/** The entry a bundle line holds, or why the line is not one. */
export function parseBundleLine(line: string): BundleEntry | string {
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return 'not JSON';
  }
  if (typeof v !== 'object' || v === null) return 'not an object';
  if ('segment' in v) {
    if (!Number.isSafeInteger(v.segment) || !isHash(v.prev)) return 'a bad segment line';
    return { kind: 'segment', position: v.segment as number, prev: Buffer.from(v.prev, 'hex') };
  }
  if ('digest' in v) {
    if (!Number.isSafeInteger(v.position) || !isHash(v.digest)) return 'a bad digest line';
    return { kind: 'digest', position: v.position as number, digest: Buffer.from(v.digest, 'hex') };
  }
  const text = ['streamName', 'id', 'type', 'data', 'recordedAt'] as const;
  for (const k of text) if (typeof v[k] !== 'string') return `${k} is not a string`;
  for (const k of ['position', 'revision'] as const) {
    if (!Number.isSafeInteger(v[k])) return `${k} is not an integer`;
  }
  const hash = v.hash;
  if (hash !== null && !isHash(hash)) return 'hash is not 64 hex digits';
  if (v.salts !== undefined && (typeof v.salts !== 'string' || !/^(?:[0-9a-f]{2})*$/.test(v.salts)))
    return 'salts are not hex';
  const hidden = parseHidden(v.hidden);
  if (typeof hidden === 'string') return hidden;
  if (typeof v.metadata !== 'string' && !(v.metadata === null && hidden?.metadata)) {
    return 'metadata is not a string';
  }
  const event: ChainedEvent = {
    position: v.position as number,
    streamName: v.streamName as string,
    revision: v.revision as number,
    id: v.id as string,
    type: v.type as string,
    data: v.data as string,
    metadata: v.metadata ?? '',
    recordedAt: v.recordedAt as string,
    hash: hash === null ? null : Buffer.from(hash, 'hex'),
    salts: typeof v.salts === 'string' ? Buffer.from(v.salts, 'hex') : null,
  };
  return { kind: 'event', event, hidden: hidden ?? undefined };
}

function parseHidden(v: unknown): Hidden | null | string {
  if (v === undefined) return null;
  const h = v as { leaves?: Record<string, unknown>; metadata?: unknown };
  if (typeof h !== 'object' || h === null) return 'hidden is not an object';
  const leaves = new Map<number, Buffer>();
  for (const [k, c] of Object.entries(h.leaves ?? {})) {
    if (!/^\d+$/.test(k) || !isHash(c)) return 'hidden.leaves maps indexes to 64 hex digits';
    leaves.set(Number(k), Buffer.from(c, 'hex'));
  }
  if (h.metadata !== undefined && !isHash(h.metadata)) return 'hidden.metadata is not a hash';
  return { leaves, metadata: h.metadata ? Buffer.from(h.metadata, 'hex') : undefined };
}

/** The message the manifest's `signature` signs. */
function signedMessage(linesDigest: Buffer, manifest: BundleManifest): Buffer {
  const { signature: _s, ...rest } = manifest;
  return Buffer.concat([SIGNED_TAG, linesDigest, Buffer.from(JSON.stringify(rest), 'utf8')]);
}

/** Signs a manifest over the bundle's lines (their sha256, `linesDigest`). */
export function signManifest(
  privateKey: KeyObject,
  linesDigest: Buffer,
  manifest: BundleManifest,
): string {
  return sign(null, signedMessage(linesDigest, manifest), privateKey).toString('base64');
}

/** What verifying a bundle found: the chain's summary, or a bundle that is not well formed. */
export interface BundleReport extends ChainSummary {
  /** A problem with the bundle itself (manifest, a line that is not an event, its head). */
  bundleProblem: string | null;
  /** What the bundle says it is, and whether the installation's key signed that. */
  scope: BundleScope | null;
  scopeSigned: boolean;
  leftOut: number;
  hiddenValues: number;
}

/** Verifies a bundle given line by line (manifest last). */
export class BundleVerifier {
  private manifest: BundleManifest | null = null;
  private readonly chain: ChainVerifier;
  private readonly lineHash = createHash('sha256');
  private linesDigest: Buffer | null = null;
  private bundleProblem: string | null = null;
  private lines = 0;
  private leftOut = 0;
  private hiddenValues = 0;

  constructor(private readonly publicKey: KeyObject) {
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
      if (m === null || typeof m.format !== 'string' || !FORMATS.includes(m.format)) {
        this.bundleProblem = `line ${this.lines} is not a ${BUNDLE_FORMAT} manifest`;
        return false;
      }
      this.manifest = m as BundleManifest;
      this.linesDigest = this.lineHash.digest();
      return true;
    }
    this.lineHash.update(`${line}\n`);
    const entry = parseBundleLine(line);
    if (typeof entry === 'string') {
      this.bundleProblem = `line ${this.lines} is not an event: ${entry}`;
      return false;
    }
    if (entry.kind === 'segment') return this.chain.restart(entry.position, entry.prev);
    if (entry.kind === 'digest') {
      this.leftOut++;
      return this.chain.addDigest(entry.position, entry.digest);
    }
    this.hiddenValues += (entry.hidden?.leaves?.size ?? 0) + (entry.hidden?.metadata ? 1 : 0);
    return this.chain.add(entry.event, entry.hidden);
  }

  result(): BundleReport {
    const summary = this.chain.result();
    const m = this.manifest;
    let bundleProblem = this.bundleProblem ?? (summary.problem ? null : this.manifestProblem());
    const scopeSigned = bundleProblem === null && summary.problem === null && this.scopeSigned();
    if (bundleProblem === null && m?.signature && !scopeSigned) {
      bundleProblem = 'the manifest signature does not match: the bundle was changed after export';
    }
    const signedUpTo = bundleProblem === null && m?.head ? m.head.position : summary.signedUpTo;
    return {
      ...summary,
      signedUpTo,
      bundleProblem,
      scope: m?.scope ?? null,
      scopeSigned,
      leftOut: this.leftOut,
      hiddenValues: this.hiddenValues,
    };
  }

  private manifestProblem(): string | null {
    const m = this.manifest;
    const summary = this.chain.result();
    if (m === null) return 'the bundle has no manifest (its last line)';
    if (m.events !== summary.events) {
      return `the manifest says ${m.events} events, the bundle holds ${summary.events}`;
    }
    if (m.head === null || m.head === undefined) {
      return 'the manifest has no signed head: nothing proves where it came from';
    }
    // Without the key, an export ends on the checkpoint that covers its last events, which
    // signs a position just before it; with the key the head is where the bundle ends.
    if (summary.head === null || m.head.position > summary.head.position) {
      return `the signed head is at position ${m.head.position}, the bundle ends at ${summary.head?.position ?? 'nothing'}`;
    }
    const bad = this.chain.checkpointProblem(m.head);
    if (bad) return `the manifest's head: ${bad.kind}: ${bad.detail}`;
    const open = this.chain.unsigned(m.head.position);
    if (open !== null) return `no signature covers the event at position ${open}`;
    return null;
  }

  private scopeSigned(): boolean {
    const m = this.manifest;
    if (!m?.signature || !this.linesDigest || m.head?.keyId !== keyIdOf(this.publicKey)) {
      return false;
    }
    const message = signedMessage(this.linesDigest, m);
    return verify(null, message, this.publicKey, Buffer.from(m.signature, 'base64'));
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
