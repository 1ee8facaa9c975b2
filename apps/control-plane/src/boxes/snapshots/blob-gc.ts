import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BlobStore } from './blob-store';
import { readManifest } from './manifest-snapshots';

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

function mtimeOf(file: string): number | null {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return null;
  }
}

/**
 * Mark and sweep. Mark: every manifest of a live snapshot, and every manifest younger than the
 * grace period (a snapshot being recorded now), names the blobs it needs; any other manifest
 * is dropped. Sweep: a blob no marked manifest names, and older than the grace period, is
 * deleted (a snapshot storing or naming a blob again touches it, so a take running meanwhile
 * keeps what it stores). A live manifest that cannot be read stops the sweep: nothing is
 * deleted that it might need.
 */
export function collectBlobs(options: CollectOptions): Collected {
  const { blobs, manifestsRoot, live, now } = options;
  const old = (mtimeMs: number) => now - mtimeMs > (options.graceMs ?? GRACE_MS);
  const out: Collected = { kept: 0, deleted: 0, freedBytes: 0, manifestsDropped: 0 };
  const marked = new Set<string>();
  const sessions = fs.existsSync(manifestsRoot) ? fs.readdirSync(manifestsRoot) : [];
  for (const sessionId of sessions) {
    const dir = path.join(manifestsRoot, sessionId);
    for (const name of fs.readdirSync(dir)) {
      const file = path.join(dir, name);
      const mtimeMs = mtimeOf(file);
      if (mtimeMs === null) continue;
      const snapshotId = name.endsWith('.json') ? name.slice(0, -'.json'.length) : null;
      if (snapshotId === null || (!live(sessionId, snapshotId) && old(mtimeMs))) {
        // A half-written manifest's leftover (.tmp) or no snapshot's: only once it is old.
        if (!old(mtimeMs)) continue;
        fs.rmSync(file, { force: true });
        out.manifestsDropped++;
        continue;
      }
      let manifest;
      try {
        manifest = readManifest(file);
      } catch (e) {
        throw new Error(
          `not collecting snapshot blobs: manifest ${file} cannot be read (${String(e)})`,
        );
      }
      for (const entry of manifest.entries) if (entry.type === 'file') marked.add(entry.sha256);
    }
    if (fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
  }
  for (const blob of blobs.entries()) {
    if ((blob.sha256 !== null && marked.has(blob.sha256)) || !old(blob.mtimeMs)) {
      out.kept++;
      continue;
    }
    fs.rmSync(blob.file, { force: true });
    out.deleted++;
    out.freedBytes += blob.size;
  }
  return out;
}
