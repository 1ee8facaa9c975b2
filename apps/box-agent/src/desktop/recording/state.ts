import { promises as fs, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Caption } from '@sessionboxer/mcp-adapters/desktop/recording';
import { writeFileAtomic } from '../../workspace/safe-write';

/**
 * The running recording, in a file on the box's tmpfs: the MCP server that started it may be
 * gone when a later turn's server stops it. Every change is read, modified and written under a
 * lock file (O_EXCL), the write itself a rename, so concurrent calls from any process never lose
 * a caption and a reader never sees half a file.
 */
export interface RecordingState {
  /** ffmpeg's pid; it leads its own process group. */
  pid: number;
  display: string;
  /** The finished .mp4, under the workspace. */
  path: string;
  /** What ffmpeg writes while recording (Matroska: readable even if ffmpeg dies). */
  capturePath: string;
  logPath: string;
  startedAt: string;
  captions: Caption[];
  /** The pid of the process whose stop_recording is finishing it. */
  stopper?: number;
}

const STATE_FILE = 'recording.json';
const LOCK_FILE = 'recording.lock';
/** A lock this old was left by a process that died holding it. */
const LOCK_STALE_MS = 30_000;
const LOCK_WAIT_MS = 20_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // A zombie answers kill(0) but has exited.
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

export class StateStore {
  constructor(readonly dir: string) {}

  private get file(): string {
    return path.join(this.dir, STATE_FILE);
  }

  async read(): Promise<RecordingState | null> {
    try {
      return JSON.parse(await fs.readFile(this.file, 'utf8')) as RecordingState;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      if (e instanceof SyntaxError) return null;
      throw e;
    }
  }

  async write(state: RecordingState): Promise<void> {
    await writeFileAtomic(this.dir, STATE_FILE, JSON.stringify(state), 0o600);
  }

  async remove(): Promise<void> {
    await fs.rm(this.file, { force: true });
  }

  /** Runs `fn` holding the lock; waits for another holder, takes over a dead one's. */
  async withLock<T>(fn: () => Promise<T>): Promise<T> {
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const lock = path.join(this.dir, LOCK_FILE);
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        const handle = await fs.open(lock, 'wx', 0o600);
        await handle.writeFile(String(process.pid));
        await handle.close();
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        if (await this.staleLock(lock)) await fs.rm(lock, { force: true });
        else if (Date.now() > deadline) throw new Error(`the recording state is locked (${lock})`);
        else await sleep(15);
      }
    }
    try {
      return await fn();
    } finally {
      await fs.rm(lock, { force: true });
    }
  }

  private async staleLock(lock: string): Promise<boolean> {
    try {
      const [holder, stat] = await Promise.all([fs.readFile(lock, 'utf8'), fs.stat(lock)]);
      const pid = Number(holder);
      if (Date.now() - stat.mtimeMs > LOCK_STALE_MS) return true;
      // An empty file is a holder between open and write: give it time.
      return Number.isInteger(pid) && pid > 0 && !pidAlive(pid);
    } catch {
      return false;
    }
  }
}
