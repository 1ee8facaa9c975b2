import { execFile, spawn } from 'node:child_process';
import { readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { lchown, lstat, readdir } from 'node:fs/promises';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { waitFor } from './box-control';

const run = promisify(execFile);

/**
 * Who a box is on the host. Root inside a box is host uid `uid` (and gid `gid`), box uid N is
 * host uid `uid + N`, for `count` ids: a subordinate-id range, as rootless containers use. So
 * nothing a box writes is owned by host root, and a setuid file it plants makes whoever runs
 * it on the host that unprivileged uid, not root. The range includes the tty group (5) and
 * the other system groups, so programs that chown a pty (xterm) work as on a normal host.
 */
export interface BoxIdentity {
  uid: number;
  gid: number;
  count: number;
}

/** systemd-nspawn's first private-users range: far above the uids a distribution hands out. */
export const DEFAULT_BOX_IDENTITY: BoxIdentity = { uid: 524288, gid: 524288, count: 65536 };

/**
 * Why `identity` cannot be the boxes' range here, or null: the range must hold a whole
 * 16-bit id space above root, and no host account may own an id inside it (a box's root
 * would then be that account on the host).
 */
export function identityProblem(identity: BoxIdentity, passwd = '/etc/passwd'): string | null {
  const { uid, gid, count } = identity;
  const ok = (n: number) => Number.isInteger(n) && n > 0 && n + count <= 2 ** 32 - 1;
  if (!ok(uid) || !ok(gid) || count < 65536) {
    return `box id range ${uid}/${gid} × ${count} must start above 0 and hold 65536 ids`;
  }
  for (const line of safeRead(passwd).split('\n')) {
    const [name, , id] = line.split(':');
    const n = Number(id);
    if (name && Number.isInteger(n) && n >= uid && n < uid + count) {
      return `host account ${name} (uid ${n}) lies inside the box uid range ${uid}–${uid + count - 1}`;
    }
  }
  return null;
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** A user namespace with the box's id mapping, held open until the box has joined it. */
export interface HeldUserNamespace {
  /** `/proc/<pid>/ns/user` of the holder: what `nsenter --user=` joins. */
  path: string;
  release(): void;
}

/**
 * Only a process in the parent namespace with CAP_SETUID may write a mapping to another
 * range, so the control plane (root) writes it for a holder process that does nothing but
 * wait (`cat` on a pipe: it also ends if the control plane dies).
 */
export async function holdUserNamespace(
  unshare: string,
  identity: BoxIdentity,
): Promise<HeldUserNamespace> {
  const holder = spawn(unshare, ['--user', '--', 'cat'], {
    stdio: ['pipe', 'ignore', 'ignore'],
    env: { PATH: '/usr/bin:/bin' },
  });
  const release = () => {
    holder.stdin?.destroy();
    holder.kill('SIGKILL');
  };
  try {
    const pid = await new Promise<number>((resolve, reject) => {
      holder.once('error', reject);
      holder.once('spawn', () => resolve(holder.pid as number));
    });
    const own = readlinkSync('/proc/self/ns/user');
    await waitFor(() => nsOf(pid) !== own, `user namespace of ${pid}`);
    writeFileSync(`/proc/${pid}/uid_map`, `0 ${identity.uid} ${identity.count}\n`);
    writeFileSync(`/proc/${pid}/gid_map`, `0 ${identity.gid} ${identity.count}\n`);
    return { path: `/proc/${pid}/ns/user`, release };
  } catch (e) {
    release();
    throw new Error(`cannot map the box user range: ${(e as Error).message}`);
  }
}

function nsOf(pid: number): string | null {
  try {
    return readlinkSync(`/proc/${pid}/ns/user`);
  } catch {
    return null;
  }
}

/**
 * Hands the box's folders to its root: the workspace (the whole tree when its top is not the
 * box's yet: a new workspace, a fork's copied files, or one from before boxes were mapped)
 * and the gateway socket folder with the socket in it. `chown -h`: links are not followed.
 */
export async function giveToBox(
  identity: BoxIdentity,
  workspaceDir: string,
  socketDir: string,
): Promise<void> {
  const owner = `${identity.uid}:${identity.gid}`;
  if ((await lstat(workspaceDir)).uid !== identity.uid) {
    await run('chown', ['-R', '-h', owner, '--', workspaceDir]);
  }
  const entries = await readdir(socketDir);
  for (const p of [socketDir, ...entries.map((e) => path.join(socketDir, e))]) {
    // lchown: the box can write this folder, and a link it planted must not hand it a host file.
    await lchown(p, identity.uid, identity.gid).catch(() => undefined); // a socket just removed
  }
}
