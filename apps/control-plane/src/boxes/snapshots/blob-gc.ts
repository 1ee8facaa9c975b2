import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BlobStore } from './blob-store';
import type { Manifest } from './manifest-snapshots';

/** What a blob or a manifest must be older than before it can be collected. */
export const GRACE_MS = 60 * 60 * 1000;

export interface Collected {
  /** Blobs some live manifest names (or too young to judge). */
  kept: number;
  deleted: number;
  freedBytes: number;
  /** Manifests of no live snapshot (a session or snapshot the history does not have). */
  manifestsDropped: number;
}

export interface CollectOptions {
  blobs: BlobStore;
  /** `<data dir>/snapshot-manifests`: a folder per session, a `<snapshot id>.json` each. */
  manifestsRoot: string;
  /** Whether the history has this turn snapshot (of a session it has). */
  live: (sessionId: string, snapshotId: string) => boolean;
  now: number;
  graceMs?: number;
}

/** The blobs the marked manifests name, and how many manifests were dropped. */
export interface Marked {
  names: Set<string>;
  manifestsDropped: number;
}

async function mtimeOf(file: string): Promise<number | null> {
  try {
    return (await fs.promises.stat(file)).mtimeMs;
  } catch {
    return null;
  }
}

async function namesIn(dir: string): Promise<string[]> {
  try {
    return await fs.promises.readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
}

const olderThanGrace = (options: CollectOptions) => (mtimeMs: number) =>
  options.now - mtimeMs > (options.graceMs ?? GRACE_MS);

async function namesOf(file: string): Promise<string[]> {
  try {
    const manifest = JSON.parse(await fs.promises.readFile(file, 'utf8')) as Manifest;
    if (manifest.format !== 'sessionboxer-snapshot-manifest/1') throw new Error('not a manifest');
    return manifest.entries.flatMap((e) => (e.type === 'file' ? [e.sha256] : []));
  } catch (e) {
    throw new Error(
      `not collecting snapshot blobs: manifest ${file} cannot be read (${String(e)})`,
    );
  }
}

/**
 * Mark: every manifest of a live snapshot, and every manifest younger than the grace period (a
 * snapshot being recorded now), names the blobs it needs; any other manifest is dropped. A live
 * manifest that cannot be read throws: nothing may be swept that it might need. Needs no lock:
 * whatever a take writes or names meanwhile is younger than the grace period.
 */
export async function markBlobs(options: CollectOptions): Promise<Marked> {
  const old = olderThanGrace(options);
  const marked: Marked = { names: new Set(), manifestsDropped: 0 };
  for (const sessionId of await namesIn(options.manifestsRoot)) {
    const dir = path.join(options.manifestsRoot, sessionId);
    for (const name of await namesIn(dir)) {
      const file = path.join(dir, name);
      const mtimeMs = await mtimeOf(file);
      if (mtimeMs === null) continue;
      const snapshotId = name.endsWith('.json') ? name.slice(0, -'.json'.length) : null;
      if (snapshotId === null || (!options.live(sessionId, snapshotId) && old(mtimeMs))) {
        // A half-written manifest's leftover (.tmp) or no snapshot's: only once it is old.
        if (!old(mtimeMs)) continue;
        await fs.promises.rm(file, { force: true });
        marked.manifestsDropped++;
        continue;
      }
      for (const sha256 of await namesOf(file)) marked.names.add(sha256);
    }
    if ((await namesIn(dir)).length === 0) await fs.promises.rm(dir, { recursive: true });
  }
  return marked;
}

/**
 * Sweep: a blob no marked manifest names, and older than the grace period, is deleted (a
 * snapshot storing or naming a blob again touches it, so a take running meanwhile keeps what
 * it stores); so are a crashed put's leftovers. Run with the store's lock held alone.
 */
export async function sweepBlobs(options: CollectOptions, marked: Marked): Promise<Collected> {
  const old = olderThanGrace(options);
  const out: Collected = {
    kept: 0,
    deleted: 0,
    freedBytes: 0,
    manifestsDropped: marked.manifestsDropped,
  };
  for await (const blob of options.blobs.entries()) {
    if ((blob.sha256 !== null && marked.names.has(blob.sha256)) || !old(blob.mtimeMs)) {
      out.kept++;
      continue;
    }
    await fs.promises.rm(blob.file, { force: true });
    out.deleted++;
    out.freedBytes += blob.size;
  }
  return out;
}

/** Mark and sweep in one (for one process with no take running, a test, a bench). */
export async function collectBlobs(options: CollectOptions): Promise<Collected> {
  return sweepBlobs(options, await markBlobs(options));
}
