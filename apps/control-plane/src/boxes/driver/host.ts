import { accessSync, constants, existsSync, readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';

/** Facts about the host the local driver needs, looked up once when it starts. */

const SYSTEM_BIN = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

/**
 * Absolute path of a host program, so a box's spawn never depends on the control plane's
 * PATH at the moment of the call.
 */
export function findExecutable(name: string, pathEnv = process.env.PATH ?? ''): string | null {
  const dirs = [...pathEnv.split(':').filter((d) => path.isAbsolute(d)), ...SYSTEM_BIN];
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here; next directory
    }
  }
  return null;
}

/** The repository (or installed copy) this code runs from: the nearest `sessionboxer` package. */
export function findProjectRoot(from: string = __dirname): string {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && packageName(manifest) === 'sessionboxer') return dir;
    if (path.dirname(dir) === dir) {
      throw new Error(`no sessionboxer package.json above ${from}; pass projectRoot`);
    }
  }
}

function packageName(manifest: string): string | null {
  try {
    const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown };
    return typeof parsed.name === 'string' ? parsed.name : null;
  } catch {
    return null;
  }
}

/** Where the cgroup v2 hierarchy is mounted (`/sys/fs/cgroup/unified` on a hybrid host). */
export function findCgroup2Mount(mounts = '/proc/self/mounts'): string | null {
  let text: string;
  try {
    text = readFileSync(mounts, 'utf8');
  } catch {
    return null;
  }
  for (const line of text.split('\n')) {
    const [, mountPoint, fsType] = line.split(' ');
    if (fsType === 'cgroup2' && mountPoint) return mountPoint.replace(/\\040/g, ' ');
  }
  return null;
}

/** State letter, parent pid and start time (clock ticks after boot) from `/proc/<pid>/stat`. */
export function procStat(pid: number): { state: string; ppid: number; startTime: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm (field 2) may hold spaces and parentheses: fields restart after the last ')'.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: rest[0], ppid: Number(rest[1]), startTime: rest[19] };
  } catch {
    return null;
  }
}

/** Every live pid on the host (what /proc lists). */
export function allPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((n) => /^\d+$/.test(n))
      .map(Number);
  } catch {
    return [];
  }
}
