import { execFile } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readlinkSync } from 'node:fs';
import * as path from 'node:path';
import { BOX_PATHS } from '@sessionboxer/mcp-adapters/bridge/protocol';
import { findExecutable } from './host';
import { isStrictlyInside } from './box-spec';

/** Where things are inside a bubblewrap box (the daemon and the MCP servers agree on these). */
export const BOX_MOUNTS = {
  workspace: BOX_PATHS.workspace,
  gatewayDir: path.posix.dirname(BOX_PATHS.gatewaySocket),
  project: '/opt/sessionboxer',
} as const;

export interface BwrapTools {
  bwrap: string;
  nsenter: string;
  setpriv: string;
}

export function findBwrapTools(): BwrapTools | null {
  const [bwrap, nsenter, setpriv] = ['bwrap', 'nsenter', 'setpriv'].map((n) => findExecutable(n));
  return bwrap && nsenter && setpriv ? { bwrap, nsenter, setpriv } : null;
}

/**
 * Namespaces and privileges of every box. As root, bwrap keeps all capabilities unless told
 * otherwise, and with CAP_SYS_ADMIN a box can `mount -o remount,rw` its read-only binds and
 * write the host's /usr (seen here): `--cap-drop ALL` is what makes read-only binds read-only.
 * `--unshare-user` confines whatever privilege is left to the box's own user namespace.
 * `--die-with-parent`: bwrap gets SIGKILL when the process that spawned it (the control
 * plane) dies, and its pid namespace with it, so no box outlives the control plane.
 */
const NAMESPACE_ARGS = [
  '--unshare-user',
  '--cap-drop',
  'ALL',
  '--unshare-pid',
  '--unshare-net',
  '--unshare-ipc',
  '--unshare-uts',
  '--die-with-parent',
  '--new-session',
];

/** Host secrets readable by uid 0 that a read-only /etc would otherwise show every box. */
function etcSecrets(): string[] {
  const ssh = existsSync('/etc/ssh') ? readdirSync('/etc/ssh') : [];
  return [
    ...['/etc/shadow', '/etc/shadow-', '/etc/gshadow', '/etc/gshadow-', '/etc/ssl/private'],
    ...ssh.filter((f) => /^ssh_host_.*_key$/.test(f)).map((f) => `/etc/ssh/${f}`),
  ];
}

/** Read-only system: /usr and /etc, and /bin, /lib* ... as the host has them (merged /usr). */
export function systemMountArgs(): string[] {
  const args = ['--ro-bind', '/usr', '/usr', '--ro-bind', '/etc', '/etc'];
  for (const top of ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32']) {
    const st = lstatOrNull(top);
    if (st?.isSymbolicLink()) args.push('--symlink', readlinkSync(top), top);
    else if (st?.isDirectory()) args.push('--ro-bind', top, top);
  }
  return [...args, ...maskArgs(etcSecrets().map((p) => [p, p]))];
}

/** [host path, box path] pairs hidden behind an empty tmpfs (folder) or /dev/null (file). */
function maskArgs(pairs: [string, string][]): string[] {
  return pairs.flatMap(([host, inBox]) => {
    const st = lstatOrNull(host);
    if (!st || st.isSymbolicLink()) return [];
    return st.isDirectory() ? ['--tmpfs', inBox] : ['--ro-bind', '/dev/null', inBox];
  });
}

function lstatOrNull(p: string): ReturnType<typeof lstatSync> | null {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
}

/**
 * The project read-only at /opt/sessionboxer, minus what a box must not read: the git
 * history, CI output, env files, and the data dir (events, other boxes' workspaces) or log
 * dir when they live inside the project (`./data` by default).
 */
export function projectMountArgs(projectRoot: string, privateDirs: string[]): string[] {
  const hidden = ['.git', '.ci', '.env'].map((n) => path.join(projectRoot, n));
  for (const dir of privateDirs) if (isStrictlyInside(projectRoot, dir)) hidden.push(dir);
  const pairs = hidden.map((h): [string, string] => [
    h,
    path.posix.join(BOX_MOUNTS.project, path.relative(projectRoot, h)),
  ]);
  return ['--ro-bind', projectRoot, BOX_MOUNTS.project, ...maskArgs(pairs)];
}

export interface BoxMountPlan {
  sessionId: string;
  workspaceDir: string;
  gatewaySocketDir: string;
  /** projectMountArgs + systemMountArgs, computed once per driver. */
  sharedMounts: string[];
  env: Record<string, string>;
  command: string[];
}

/** bwrap's arguments for a box's main process; fd 3 receives bwrap's JSON info (child pid). */
export function boxArgs(plan: BoxMountPlan): string[] {
  const env = Object.entries(plan.env).flatMap(([k, v]) => ['--setenv', k, v]);
  return [
    ...NAMESPACE_ARGS,
    ...['--hostname', `box-${plan.sessionId.slice(0, 8)}`],
    ...plan.sharedMounts,
    ...['--bind', plan.workspaceDir, BOX_MOUNTS.workspace],
    ...['--bind', plan.gatewaySocketDir, BOX_MOUNTS.gatewayDir],
    ...['--proc', '/proc', '--dev', '/dev', '--tmpfs', '/dev/shm', '--tmpfs', '/tmp'],
    ...['--chdir', BOX_MOUNTS.workspace, '--clearenv', ...env, '--info-fd', '3'],
    '--',
    ...plan.command,
  ];
}

/**
 * Runs inside the box after the namespaces are joined: cd, export the box's environment
 * (passed as NAME=value arguments, so the host-side nsenter/setpriv never see variables such
 * as LD_PRELOAD meant for the box), then exec the argv. Constant text; values are arguments.
 */
const IN_BOX_SCRIPT =
  'cd -- "$1" || exit 126; shift; n=$1; shift; ' +
  'while [ "$n" -gt 0 ]; do export "$1"; shift; n=$((n - 1)); done; exec "$@"';

/**
 * argv that runs `argv` inside a running box: nsenter joins all of the box's namespaces (so
 * the box's /tmp, its processes and its 127.0.0.1 are the process's own), setpriv drops the
 * capabilities that joining the user namespace grants, and the process dies if the nsenter
 * in front of it is killed (nsenter forks for the pid namespace and forwards no signal).
 */
export function execArgv(
  tools: BwrapTools,
  nsInitPid: number,
  argv: string[],
  cwd: string,
  env: Record<string, string>,
): string[] {
  const exports = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  return [
    ...[tools.nsenter, `--target=${nsInitPid}`, '--user', '--mount', '--net', '--pid'],
    ...['--ipc', '--uts', '--', tools.setpriv, '--bounding-set=-all', '--inh-caps=-all'],
    ...['--no-new-privs', '--pdeathsig', 'KILL', '--', '/bin/sh', '-c', IN_BOX_SCRIPT],
    ...['sessionboxer-exec', cwd, String(exports.length), ...exports, ...argv],
  ];
}

/** null when a box with the real namespaces runs `/bin/true` here; else why it does not. */
export function probeBubblewrap(tools: BwrapTools): Promise<string | null> {
  const args = [...NAMESPACE_ARGS, ...systemMountArgs(), '--proc', '/proc', '--dev', '/dev'];
  return new Promise((resolve) => {
    execFile(tools.bwrap, [...args, '--', '/bin/true'], { timeout: 5000 }, (err, _o, stderr) => {
      resolve(err ? `${err.message.split('\n')[0]} ${stderr.trim()}`.trim() : null);
    });
  });
}
