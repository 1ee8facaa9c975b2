import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BlobStore } from './blob-store';

/** One thing in the workspace, as a manifest keeps it; paths are relative, `/`-separated. */
export type ManifestEntry =
  | { path: string; type: 'dir'; mode: number; uid: number; gid: number; mtimeMs: number }
  | {
      path: string;
      type: 'file';
      mode: number;
      uid: number;
      gid: number;
      mtimeMs: number;
      size: number;
      sha256: string;
    }
  | { path: string; type: 'symlink'; uid: number; gid: number; target: string };

export interface Manifest {
  format: 'sessionboxer-snapshot-manifest/1';
  entries: ManifestEntry[];
}

export interface Captured {
  manifest: Manifest;
  sizeBytes: number;
  files: number;
  /** Bytes of blobs this capture added (files no snapshot had before). */
  newBytes: number;
}

/**
 * Walks the workspace and records every directory, file and link. A file whose size and mtime
 * are what the previous manifest recorded keeps its hash unread (mtime+size, as rsync and git
 * do); any other is stored in the blob store. Sockets, FIFOs and device nodes are left out.
 */
export function capture(workspace: string, blobs: BlobStore, previous: Manifest | null): Captured {
  const known = new Map<string, ManifestEntry>();
  for (const e of previous?.entries ?? []) known.set(e.path, e);
  const out: Captured = {
    manifest: { format: 'sessionboxer-snapshot-manifest/1', entries: [] },
    sizeBytes: 0,
    files: 0,
    newBytes: 0,
  };
  const walk = (dir: string, rel: string) => {
    for (const name of fs.readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      const relPath = rel ? `${rel}/${name}` : name;
      const st = fs.lstatSync(full);
      const owner = { uid: st.uid, gid: st.gid };
      if (st.isSymbolicLink()) {
        out.manifest.entries.push({
          path: relPath,
          type: 'symlink',
          ...owner,
          target: fs.readlinkSync(full),
        });
      } else if (st.isDirectory()) {
        out.manifest.entries.push({
          path: relPath,
          type: 'dir',
          mode: st.mode & 0o7777,
          ...owner,
          mtimeMs: st.mtimeMs,
        });
        walk(full, relPath);
      } else if (st.isFile()) {
        const before = known.get(relPath);
        let sha256: string;
        if (before?.type === 'file' && before.size === st.size && before.mtimeMs === st.mtimeMs) {
          sha256 = before.sha256;
        } else {
          const put = blobs.put(full);
          sha256 = put.sha256;
          out.newBytes += put.added;
        }
        const mode = st.mode & 0o7777;
        out.manifest.entries.push({
          path: relPath,
          type: 'file',
          mode,
          ...owner,
          mtimeMs: st.mtimeMs,
          size: st.size,
          sha256,
        });
        out.sizeBytes += st.size;
        out.files++;
      }
    }
  };
  walk(workspace, '');
  return out;
}

/** Refuses a path that could leave the folder it is put into (a manifest is ours, but still). */
function inside(target: string, rel: string): string {
  const parts = rel.split('/');
  if (
    rel === '' ||
    path.isAbsolute(rel) ||
    parts.some((p) => p === '' || p === '.' || p === '..')
  ) {
    throw new Error(`bad manifest path ${JSON.stringify(rel)}`);
  }
  return path.join(target, ...parts);
}

/**
 * Writes the manifest's tree into `target` (which must exist): files from their blobs with
 * their mode (set-id bits cleared: copies made by the control plane never carry them), owner
 * and mtime; links as links, never followed. Directories get their mtime last.
 */
export function materialize(manifest: Manifest, blobs: BlobStore, target: string): void {
  const dirs: { full: string; mtimeMs: number }[] = [];
  for (const e of manifest.entries) {
    const full = inside(target, e.path);
    if (e.type === 'dir') {
      fs.mkdirSync(full, { mode: 0o700 });
      fs.chmodSync(full, e.mode & 0o1777);
      own(full, e.uid, e.gid);
      dirs.push({ full, mtimeMs: e.mtimeMs });
    } else if (e.type === 'file') {
      blobs.copyTo(e.sha256, full);
      fs.chmodSync(full, e.mode & 0o1777);
      own(full, e.uid, e.gid);
      fs.utimesSync(full, e.mtimeMs / 1000, e.mtimeMs / 1000);
    } else {
      fs.symlinkSync(e.target, full);
      own(full, e.uid, e.gid);
    }
  }
  for (const d of dirs.reverse()) fs.utimesSync(d.full, d.mtimeMs / 1000, d.mtimeMs / 1000);
}

/** The box's owner where the control plane may give files away (root); its own uid otherwise. */
function own(file: string, uid: number, gid: number): void {
  try {
    fs.lchownSync(file, uid, gid);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') throw e;
  }
}

export function readManifest(file: string): Manifest {
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
  if (manifest.format !== 'sessionboxer-snapshot-manifest/1') {
    throw new Error(`${file} is not a snapshot manifest`);
  }
  return manifest;
}

/** Written to a temporary name and renamed: a crash leaves the old manifest or the new one. */
export function writeManifest(file: string, manifest: Manifest): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(manifest), { mode: 0o600 });
  fs.renameSync(tmp, file);
}
