import { execFile } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readlinkSync } from 'node:fs';
import * as path from 'node:path';
import { BOX_PATHS } from '@sessionboxer/mcp-adapters/bridge/protocol';
import { findExecutable } from './host';
import { ISOLATION_COMMANDS } from './host-commands';
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
  unshare: string;
}

export function findBwrapTools(): BwrapTools | null {
  const [bwrap, nsenter, setpriv, unshare] = ISOLATION_COMMANDS.map((n) => findExecutable(n));
  return bwrap && nsenter && setpriv && unshare ? { bwrap, nsenter, setpriv, unshare } : null;
}

/**
 * What root in a box may do, as root in a container may (Docker's default set, less mknod and
 * raw sockets): programs such as xterm chown their pty to the tty group and initgroups. In the
 * box's user namespace these reach only files and processes whose ids are box ids, never a
 * host file (host root's files are not mapped). CAP_SYS_ADMIN is never among them.
 */
export const BOX_CAPS = [
  'chown',
  'dac_override',
  'fowner',
  'fsetid',
  'kill',
  'setgid',
  'setuid',
  'net_bind_service',
  'sys_chroot',
] as const;

/**
 * Namespaces and privileges of every box. As root, bwrap keeps all capabilities unless told
 * otherwise, and with CAP_SYS_ADMIN a box can `mount -o remount,rw` its read-only binds and
 * write the host's /usr (seen here): `--cap-drop ALL` is what makes read-only binds read-only.
 * BOX_CAPS are added back. The user namespace comes from outside (see BoxUser). The cgroup namespace makes the box's own group its `/`, so /proc/self/cgroup
 * names no host path.
 * No `--die-with-parent`: a box outlives the control plane (a restart or a crash), and the
 * next one adopts it (see adoption.ts). `--new-session`: the box's processes have a session
 * of their own, as its outer bwrap has (spawned detached).
 */
const NAMESPACE_ARGS = [
  '--cap-drop',
  'ALL',
  ...BOX_CAPS.flatMap((c) => ['--cap-add', `CAP_${c.toUpperCase()}`]),
  '--unshare-pid',
  '--unshare-net',
  '--unshare-ipc',
  '--unshare-uts',
  '--unshare-cgroup-try',
  '--new-session',
];

/**
 * How a box's user namespace is made. `mapped` (the control plane runs as root): a namespace
 * whose root is the box identity's host uid, made before bwrap runs (see box-identity.ts).
 * `own` (not root): bwrap's `--unshare-user`, root inside being the control plane's own user.
 */
export type BoxUser = { kind: 'mapped'; userns: string } | { kind: 'own' };

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

/** A host folder bound into the box. */
export interface HostBind {
  host: string;
  box: string;
  readOnly: boolean;
}

/**
 * The project read-only at /opt/sessionboxer, minus what a box must not read: the git
 * history, CI output, env files, and the data dir (events, other boxes' workspaces) or log
 * dir when they live inside the project (`./data` by default).
 */
export function projectMount(projectRoot: string, privateDirs: string[]) {
  const hidden = ['.git', '.ci', '.env'].map((n) => path.join(projectRoot, n));
  for (const dir of privateDirs) if (isStrictlyInside(projectRoot, dir)) hidden.push(dir);
  const pairs = hidden.map((h): [string, string] => [
    h,
    path.posix.join(BOX_MOUNTS.project, path.relative(projectRoot, h)),
  ]);
  const bind: HostBind = { host: projectRoot, box: BOX_MOUNTS.project, readOnly: true };
  return { bind, masks: maskArgs(pairs) };
}

export interface BoxMountPlan {
  sessionId: string;
  workspaceDir: string;
  gatewaySocketDir: string;
  /** systemMountArgs, computed once per driver. */
  systemMounts: string[];
  /** The project's bind and the masks over its private parts, worked out at each start. */
  project: { bind: HostBind; masks: string[] };
  env: Record<string, string>;
  command: string[];
}

/** The host folders a box binds: the project (read-only), its workspace and socket folder. */
export function hostBinds(plan: BoxMountPlan): HostBind[] {
  return [
    plan.project.bind,
    { host: plan.workspaceDir, box: BOX_MOUNTS.workspace, readOnly: false },
    { host: plan.gatewaySocketDir, box: BOX_MOUNTS.gatewayDir, readOnly: false },
  ];
}

/**
 * A mapped box's bwrap runs as the box's root, which cannot walk the data dir (0700, the
 * control plane's): the host folders are first bound, as the control plane, onto a small
 * tmpfs at STAGE_DIR in a mount namespace of their own (nothing changes on the host), and
 * bwrap binds them from there. Constant script; paths and argv are its arguments.
 */
export const STAGE_DIR = '/run/sessionboxer-stage';
const STAGE_SCRIPT =
  'stage=$1; n=$2; shift 2; ' +
  'mount -t tmpfs -o mode=0755,nosuid,nodev,size=64k sessionboxer-stage "$stage" || exit 125; ' +
  'i=0; while [ "$i" -lt "$n" ]; do mkdir "$stage/$i" && mount --bind -- "$1" "$stage/$i" ' +
  '|| exit 125; shift; i=$((i + 1)); done; exec "$@"';

/** bwrap's arguments for a box's main process; fd 3 receives bwrap's JSON info (child pid). */
export function boxArgs(plan: BoxMountPlan, user: BoxUser): string[] {
  const env = Object.entries(plan.env).flatMap(([k, v]) => ['--setenv', k, v]);
  const binds = hostBinds(plan).flatMap((b, i) => [
    b.readOnly ? '--ro-bind' : '--bind',
    user.kind === 'mapped' ? `${STAGE_DIR}/${i}` : b.host,
    b.box,
  ]);
  return [
    ...(user.kind === 'own' ? ['--unshare-user'] : []),
    ...NAMESPACE_ARGS,
    ...['--hostname', `box-${plan.sessionId.slice(0, 8)}`],
    ...plan.systemMounts,
    ...binds,
    ...plan.project.masks,
    ...['--proc', '/proc', '--dev', '/dev', '--tmpfs', '/dev/shm', '--tmpfs', '/tmp'],
    ...['--chdir', BOX_MOUNTS.workspace, '--clearenv', ...env, '--info-fd', '3'],
    '--',
    ...plan.command,
  ];
}

/**
 * The whole argv of a box's main process: bwrap alone (`own`), or, for a mapped box, a
 * private mount namespace that stages the host folders, then nsenter into the prepared user
 * namespace (which makes the process the box's root), then bwrap.
 */
export function launchArgv(tools: BwrapTools, hosts: string[], bwrapArgs: string[], user: BoxUser) {
  if (user.kind === 'own') return [tools.bwrap, ...bwrapArgs];
  return [
    ...[tools.unshare, '--mount', '--propagation', 'private', '--'],
    ...['/bin/sh', '-c', STAGE_SCRIPT, 'sessionboxer-stage', STAGE_DIR, String(hosts.length)],
    ...hosts,
    ...[tools.nsenter, `--user=${user.userns}`, '--', tools.bwrap, ...bwrapArgs],
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

/** What exec keeps of the capabilities joining the box's user namespace grants: BOX_CAPS. */
const EXEC_CAPS = [
  `--bounding-set=-all,${BOX_CAPS.map((c) => `+${c}`).join(',')}`,
  '--inh-caps=-all',
];

/**
 * argv that runs `argv` inside a running box: nsenter joins all of the box's namespaces and
 * becomes its root (so the box's /tmp, its processes and its 127.0.0.1 are the process's
 * own), setpriv drops the capabilities that joining the user namespace grants but CAP_CHOWN, and the process dies if the nsenter
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
    ...['--ipc', '--uts', '--cgroup', '--', tools.setpriv, ...EXEC_CAPS],
    ...['--no-new-privs', '--pdeathsig', 'KILL', '--', '/bin/sh', '-c', IN_BOX_SCRIPT],
    ...['sessionboxer-exec', cwd, String(exports.length), ...exports, ...argv],
  ];
}

/** null when a box with the real namespaces (and user) runs `/bin/true` here; else why not. */
export function probeBubblewrap(tools: BwrapTools, user: BoxUser): Promise<string | null> {
  const args = [
    ...(user.kind === 'own' ? ['--unshare-user'] : []),
    ...[...NAMESPACE_ARGS, ...systemMountArgs(), '--proc', '/proc', '--dev', '/dev'],
    ...['--', '/bin/true'],
  ];
  const [cmd, ...rest] = launchArgv(tools, [], args, user);
  return new Promise((resolve) => {
    execFile(cmd, rest, { timeout: 5000 }, (err, _o, stderr) => {
      resolve(err ? `${err.message.split('\n')[0]} ${stderr.trim()}`.trim() : null);
    });
  });
}
