import { lstat, mkdir, realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { type BoxLimits, type BoxSpec, boxInvalid } from './box-driver.port';

/**
 * Everything that comes from a caller is checked here, before any folder, cgroup or process
 * exists: the session id becomes part of paths and cgroup names, the folders become mounts.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function assertSessionId(sessionId: unknown): asserts sessionId is string {
  if (typeof sessionId !== 'string' || !UUID.test(sessionId)) {
    throw boxInvalid('sessionId', `must be a uuid, got ${JSON.stringify(sessionId)}`);
  }
}

export function assertArgv(argv: unknown, field: string): asserts argv is string[] {
  const ok =
    Array.isArray(argv) &&
    argv.length > 0 &&
    argv.every((a) => typeof a === 'string' && !a.includes('\0')) &&
    (argv[0] as string).length > 0;
  if (!ok) throw boxInvalid(field, 'must be a non-empty argv array of strings without NUL');
}

export function assertEnv(env: unknown, field: string): asserts env is Record<string, string> {
  if (typeof env !== 'object' || env === null || Array.isArray(env)) {
    throw boxInvalid(field, 'must be an object of strings');
  }
  for (const [k, v] of Object.entries(env)) {
    if (!ENV_NAME.test(k)) throw boxInvalid(field, `bad variable name ${JSON.stringify(k)}`);
    if (typeof v !== 'string' || v.includes('\0')) {
      throw boxInvalid(field, `${k} must be a string without NUL`);
    }
  }
}

/**
 * An absolute path strictly inside `dataDir`, written without `..` segments (refused, not
 * normalised away: a caller that sends `..` is confused or hostile either way).
 */
export function pathInside(dataDir: string, p: unknown, field: string): string {
  if (typeof p !== 'string' || p.length === 0 || p.includes('\0') || !path.isAbsolute(p)) {
    throw boxInvalid(field, 'must be an absolute path');
  }
  if (p.split(/[\\/]+/).includes('..')) throw boxInvalid(field, 'must not contain ".."');
  const resolved = path.resolve(p);
  if (!isStrictlyInside(dataDir, resolved)) {
    throw boxInvalid(field, `must be inside the data dir ${dataDir}`);
  }
  return resolved;
}

export function isStrictlyInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

export function overlaps(a: string, b: string): boolean {
  return a === b || isStrictlyInside(a, b) || isStrictlyInside(b, a);
}

/** The spec with every field checked and both folders resolved inside the data dir. */
export function validateSpec(spec: BoxSpec, dataDir: string): BoxSpec {
  if (typeof spec !== 'object' || spec === null) throw boxInvalid('spec', 'must be an object');
  assertSessionId(spec.sessionId);
  assertArgv(spec.command, 'command');
  assertEnv(spec.env, 'env');
  if (spec.limits !== undefined) assertLimits(spec.limits, 'limits');
  const workspaceDir = pathInside(dataDir, spec.workspaceDir, 'workspaceDir');
  const gatewaySocketDir = pathInside(dataDir, spec.gatewaySocketDir, 'gatewaySocketDir');
  if (overlaps(workspaceDir, gatewaySocketDir)) {
    throw boxInvalid('gatewaySocketDir', 'must not overlap the workspace');
  }
  return { ...spec, workspaceDir, gatewaySocketDir };
}

/** Cores and bytes a kernel can enforce: at least 0.01 core and 4 MiB, at most 1024 and 1 PiB. */
export function assertLimits(limits: unknown, field: string): asserts limits is BoxLimits {
  const l = limits as Partial<BoxLimits> | null;
  if (typeof l !== 'object' || l === null) throw boxInvalid(field, 'must be { cpu, memoryBytes }');
  if (typeof l.cpu !== 'number' || !(l.cpu >= 0.01 && l.cpu <= 1024)) {
    throw boxInvalid(
      `${field}.cpu`,
      `must be a number of cores from 0.01 to 1024, got ${String(l.cpu)}`,
    );
  }
  const mem = l.memoryBytes;
  if (
    typeof mem !== 'number' ||
    !Number.isSafeInteger(mem) ||
    mem < 4 * 1024 * 1024 ||
    mem > 2 ** 50
  ) {
    throw boxInvalid(
      `${field}.memoryBytes`,
      `must be whole bytes from 4 MiB to 1 PiB, got ${String(mem)}`,
    );
  }
}

/** A box must not see another box's folders: no sharing, no nesting either way. */
export function assertSeparate(spec: BoxSpec, others: BoxSpec[]): void {
  for (const other of others) {
    if (other.sessionId === spec.sessionId) continue;
    for (const theirs of [other.workspaceDir, other.gatewaySocketDir]) {
      for (const [field, ours] of [
        ['workspaceDir', spec.workspaceDir],
        ['gatewaySocketDir', spec.gatewaySocketDir],
      ] as const) {
        if (overlaps(theirs, ours))
          throw boxInvalid(field, `overlaps a folder of box ${other.sessionId}`);
      }
    }
  }
}

/**
 * Creates both folders, checking where they really are before and after: a symlink planted
 * on the way must neither make mkdir create folders outside the data dir nor carry a mount
 * out of it.
 */
export async function makeBoxDirs(spec: BoxSpec, dataDir: string): Promise<void> {
  const realData = await realpath(dataDir);
  for (const [field, dir] of [
    ['workspaceDir', spec.workspaceDir],
    ['gatewaySocketDir', spec.gatewaySocketDir],
  ] as const) {
    const existing = await realpath(await nearestExisting(dir));
    if (existing !== realData && !isStrictlyInside(realData, existing)) {
      throw boxInvalid(field, 'resolves (through a symlink) outside the data dir');
    }
    await mkdir(dir, { recursive: true, mode: 0o755 });
    if (!isStrictlyInside(realData, await realpath(dir))) {
      throw boxInvalid(field, 'resolves (through a symlink) outside the data dir');
    }
  }
}

async function nearestExisting(dir: string): Promise<string> {
  for (let d = dir; ; d = path.dirname(d)) {
    try {
      await lstat(d);
      return d;
    } catch {
      if (path.dirname(d) === d) return d;
    }
  }
}

export interface BoxEnvPaths {
  workspace: string;
  gatewaySocket: string;
  edgeSocket: string;
  /** The proxy the box's HTTP_PROXY names (BOX_EDGE.url); null: none (an unisolated box). */
  edgeUrl: string | null;
}

/** What curl, git, npm, pip and the agent CLIs read to send everything through the edge. */
export function proxyEnv(edgeUrl: string): Record<string, string> {
  const noProxy = '127.0.0.1,localhost,::1';
  return {
    HTTP_PROXY: edgeUrl,
    HTTPS_PROXY: edgeUrl,
    http_proxy: edgeUrl,
    https_proxy: edgeUrl,
    NO_PROXY: noProxy,
    no_proxy: noProxy,
  };
}

/**
 * The box's whole environment: defaults a daemon needs (and the proxy, the box's one way
 * out), the spec's variables over them, and the session id last so a spec cannot name
 * another session.
 */
export function boxEnv(
  sessionId: string,
  specEnv: Record<string, string>,
  paths: BoxEnvPaths,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    LANG: 'C.UTF-8',
    HOME: paths.workspace,
    SESSIONBOXER_WORKSPACE: paths.workspace,
    SESSIONBOXER_GATEWAY_SOCKET: paths.gatewaySocket,
    SESSIONBOXER_EDGE_SOCKET: paths.edgeSocket,
    ...(paths.edgeUrl ? proxyEnv(paths.edgeUrl) : {}),
    ...specEnv,
    ...extra,
    SESSIONBOXER_SESSION_ID: sessionId,
  };
}
