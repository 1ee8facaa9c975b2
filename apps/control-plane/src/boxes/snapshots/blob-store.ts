import { createHash, randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

const SHA256 = /^[0-9a-f]{64}$/;
const CHUNK = 1 << 20;

/**
 * Files by the sha256 of their bytes, under `<data dir>/snapshot-blobs/ab/abcd…`: a file that
 * many snapshots (and sessions) hold is stored once. Blobs are root's, 0600, never in a box.
 */
export class BlobStore {
  constructor(readonly root: string) {}

  static inDataDir(dataDir: string): BlobStore {
    return new BlobStore(path.join(dataDir, 'snapshot-blobs'));
  }

  path(sha256: string): string {
    if (!SHA256.test(sha256)) throw new Error(`bad blob name ${JSON.stringify(sha256)}`);
    return path.join(this.root, sha256.slice(0, 2), sha256);
  }

  has(sha256: string): boolean {
    return fs.existsSync(this.path(sha256));
  }

  /**
   * Stores a file's bytes: copied first (a reflink where the file system has them), then
   * hashed from the copy, so a file the box rewrites meanwhile can never be stored under a hash
   * its bytes do not have. Returns the hash and whether the blob is new.
   */
  put(file: string): { sha256: string; added: number } {
    fs.mkdirSync(this.root, { recursive: true, mode: 0o700 });
    const tmp = path.join(this.root, `.tmp-${randomUUID()}`);
    fs.copyFileSync(file, tmp, fs.constants.COPYFILE_FICLONE);
    try {
      fs.chmodSync(tmp, 0o600);
      const sha256 = hashFile(tmp);
      const target = this.path(sha256);
      if (refresh(target)) return { sha256, added: 0 };
      fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
      const added = fs.statSync(tmp).size;
      fs.renameSync(tmp, target);
      return { sha256, added };
    } finally {
      fs.rmSync(tmp, { force: true });
    }
  }

  /**
   * Every blob file there is now, with its size and mtime, and leftovers of a crashed put
   * (sha256 null); read asynchronously, so a large store does not hold up the process.
   */
  async *entries(): AsyncGenerator<{
    file: string;
    sha256: string | null;
    size: number;
    mtimeMs: number;
  }> {
    for (const name of await namesIn(this.root)) {
      const full = path.join(this.root, name);
      if (name.startsWith('.tmp-')) {
        const st = await statOrNull(full);
        if (st) yield { file: full, sha256: null, size: st.size, mtimeMs: st.mtimeMs };
        continue;
      }
      if (!/^[0-9a-f]{2}$/.test(name)) continue;
      for (const blob of await namesIn(full)) {
        const file = path.join(full, blob);
        const st = await statOrNull(file);
        if (!st?.isFile()) continue;
        const sha256 = SHA256.test(blob) && blob.startsWith(name) ? blob : null;
        yield { file, sha256, size: st.size, mtimeMs: st.mtimeMs };
      }
    }
  }

  /** Writes a blob's bytes as a new file (a reflink where it can). */
  copyTo(sha256: string, dest: string): void {
    fs.copyFileSync(this.path(sha256), dest, fs.constants.COPYFILE_FICLONE);
  }
}

/**
 * An existing blob is touched when a snapshot names it again, so the collector, which keeps
 * every blob younger than its grace period, cannot take it away before the snapshot's
 * manifest is written. False when there is none (or it went meanwhile).
 */
function refresh(target: string): boolean {
  try {
    const now = new Date();
    fs.utimesSync(target, now, now);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
}

async function statOrNull(file: string): Promise<fs.Stats | null> {
  try {
    return await fs.promises.stat(file);
  } catch {
    return null; // gone meanwhile
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

function hashFile(file: string): string {
  const hash = createHash('sha256');
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const n = fs.readSync(fd, buffer, 0, CHUNK, null);
      if (n === 0) break;
      hash.update(buffer.subarray(0, n));
    }
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}
