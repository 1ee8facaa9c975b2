/**
 * Writes a bundle (bundle.ts) of the whole history or of the events a selection picks, with
 * the values a redaction names hidden. An event not picked is written as its digest while a
 * segment is open, and a segment stays open from a picked event until a signature covers it
 * (a checkpoint in the history, or the head the manifest signs), so every picked event is
 * proved; between segments nothing is written at all.
 */
import { createHash } from 'node:crypto';
import type { AuditKey } from './audit-key';
import {
  bundleLine,
  BUNDLE_FORMAT,
  digestLine,
  REDACTED,
  segmentLine,
  signManifest,
  type BundleManifest,
  type BundleScope,
} from './bundle';
import { GENESIS_HASH, type ChainedEvent } from './canonical';
import type { ChainReader } from './chain-reader';
import {
  CHECKPOINT_STREAM,
  CHECKPOINT_TYPE,
  signCheckpoint,
  type CheckpointData,
} from './checkpoint';
import {
  eventDigest,
  leafCommitment,
  replaceLeaves,
  SALT_BYTES,
  stringLeaves,
  type Hidden,
} from './commitment';

const PAGE = 5_000;

/** What to hide of one event: strings of its data by index (stringLeaves' order), its metadata. */
export interface Redaction {
  leaves: ReadonlySet<number>;
  metadata: boolean;
  /** Leave the whole event out (a secret where no value can be hidden alone, e.g. a key). */
  whole?: boolean;
}

export interface ExportOptions {
  scope?: BundleScope;
  /** Whether an event goes in; default every event. Called for each event in position order. */
  select?(e: ChainedEvent): boolean;
  /** What to hide of an event that goes in; null: nothing. */
  redact?(data: unknown, metadata: unknown): Redaction | null;
  onProgress?(done: number, total: number): void;
}

/** Why an export cannot prove what it was asked for (a schema-2 event it would have to cut). */
export class ExportError extends Error {}

const isCheckpoint = (e: ChainedEvent): boolean =>
  e.streamName === CHECKPOINT_STREAM && e.type === CHECKPOINT_TYPE;

/**
 * Writes the bundle through `write` and returns its manifest. The head is signed now when the
 * key is at hand, else it is the last checkpoint's and the bundle stops at what it signs. A
 * selection whose last events a checkpoint already covers ends there: its head is signed at
 * the last line written (with the key), or is that checkpoint's (without).
 */
export async function exportBundle(
  store: ChainReader,
  key: AuditKey | null,
  lastCheckpoint: CheckpointData | null,
  write: (line: string) => Promise<void>,
  options: ExportOptions = {},
): Promise<BundleManifest> {
  const head = await store.chainHead();
  let signed: CheckpointData | null = null;
  if (head && head.hash && key) {
    signed = signCheckpoint(key.privateKey, key.publicKey, head.position, head.hash);
  } else if (lastCheckpoint) {
    signed = lastCheckpoint;
  }
  const last = signed?.position ?? head?.position ?? 0;
  const lines = createHash('sha256');
  const put = async (line: string): Promise<void> => {
    lines.update(`${line}\n`);
    await write(`${line}\n`);
  };
  const counts = { events: 0, leftOut: 0, hiddenValues: 0, segments: 0 };
  let first: number | null = null;
  let open = false;
  let written = 0;
  let writtenHash = GENESIS_HASH;
  let closedBy: CheckpointData | null = null;
  let segmentStart = 1;
  let lastWhole = 0;
  let covered = 0;
  let prev = GENESIS_HASH;
  let from = 1;
  while (from <= last) {
    const page = (await store.readChain(from, PAGE)).filter((e) => e.position <= last);
    if (page.length === 0) break;
    for (const e of page) {
      const checkpoint = isCheckpoint(e);
      const picked = checkpoint ? open : (options.select?.(e) ?? true);
      if (!picked && !open) {
        prev = e.hash ?? GENESIS_HASH;
        continue;
      }
      const redaction = picked ? redactionOf(e, options, checkpoint) : null;
      if (!open) {
        // Straight on from the last line written (or from 1): no segment line is needed.
        if (e.position !== written + 1) {
          await put(segmentLine(e.position, prev));
          segmentStart = e.position;
          lastWhole = 0;
          covered = 0;
        }
        counts.segments += e.position !== written + 1 || written === 0 ? 1 : 0;
        open = true;
        first ??= e.position;
      }
      if (!picked || redaction?.whole) {
        await put(digestLine(e.position, digestOf(e)));
        counts.leftOut++;
      } else if (redaction) {
        await put(hiddenLine(e, redaction));
        counts.events++;
        counts.hiddenValues += redaction.leaves.size + (redaction.metadata ? 1 : 0);
      } else {
        await put(bundleLine(e));
        counts.events++;
      }
      written = e.position;
      prev = e.hash ?? GENESIS_HASH;
      writtenHash = prev;
      if (checkpoint) {
        const c = JSON.parse(e.data.toString()) as CheckpointData;
        if (c.position >= segmentStart && c.position >= covered) {
          covered = c.position;
          closedBy = c;
        }
      } else if (picked && !redaction?.whole) {
        lastWhole = e.position;
      }
      if (lastWhole <= covered) open = false;
    }
    from = page[page.length - 1].position + 1;
    options.onProgress?.(from - 1, last);
  }
  if (first !== null && written < last) {
    signed = key ? signCheckpoint(key.privateKey, key.publicKey, written, writtenHash) : closedBy;
  }
  const manifest: BundleManifest = {
    format: BUNDLE_FORMAT,
    exportedAt: new Date().toISOString(),
    scope: options.scope ?? { session: null, family: false, redacted: false },
    ...counts,
    first,
    last: first === null ? null : written,
    head: signed,
    signature: null,
  };
  if (key && signed) manifest.signature = signManifest(key.privateKey, lines.digest(), manifest);
  await write(`${JSON.stringify(manifest)}\n`);
  return manifest;
}

/** A checkpoint's data is a signature, which the bundle needs: only its metadata can go. */
function redactionOf(
  e: ChainedEvent,
  options: ExportOptions,
  checkpoint: boolean,
): Redaction | null {
  if (!options.redact) return null;
  const data = JSON.parse(e.data.toString()) as unknown;
  const metadata = JSON.parse(e.metadata.toString()) as unknown;
  const asked = options.redact(data, metadata);
  const r = checkpoint && asked ? { leaves: new Set<number>(), metadata: asked.metadata } : asked;
  if (r === null || (!r.whole && r.leaves.size === 0 && !r.metadata)) return null;
  if (!e.salts) {
    throw new ExportError(
      `the event at position ${e.position} (${e.type}) was recorded before schema 3: its hash commits to its whole text, so it cannot be redacted and still verify; export without --redact`,
    );
  }
  return r;
}

function digestOf(e: ChainedEvent): Buffer {
  if (!e.salts) {
    throw new ExportError(
      `the event at position ${e.position} was recorded before schema 3 and lies between the selected events: only the whole history can be exported across it`,
    );
  }
  return eventDigest(e, e.salts);
}

function hiddenLine(e: ChainedEvent, r: Redaction): string {
  const salts = Buffer.from(e.salts as Buffer);
  const data = JSON.parse(e.data.toString()) as unknown;
  const strings = stringLeaves(data);
  const leaves = new Map<number, Buffer>();
  for (const i of r.leaves) {
    const at = (i + 1) * SALT_BYTES;
    leaves.set(i, leafCommitment(salts.subarray(at, at + SALT_BYTES), strings[i]));
    salts.fill(0, at, at + SALT_BYTES);
  }
  const hidden: Hidden = { leaves };
  if (r.metadata) {
    hidden.metadata = leafCommitment(salts.subarray(0, SALT_BYTES), e.metadata.toString());
    salts.fill(0, 0, SALT_BYTES);
  }
  return bundleLine(e, {
    data: JSON.stringify(replaceLeaves(data, r.leaves, REDACTED)),
    metadata: r.metadata ? null : e.metadata.toString(),
    salts,
    hidden,
  });
}
