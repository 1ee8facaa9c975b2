import { mkdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { BOX_EDGE, BOX_PATHS } from '@sessionboxer/mcp-adapters/bridge/protocol';
import type { BoxIsolation, BoxSpec } from './box-driver.port';
import {
  type BoxIdentity,
  DEFAULT_BOX_IDENTITY,
  giveToBox,
  holdUserNamespace,
  identityProblem,
} from './box-identity';
import { boxEnv } from './box-spec';
import {
  BOX_MOUNTS,
  type BoxUser,
  type BwrapTools,
  boxArgs,
  execArgv,
  findBwrapTools,
  hostBinds,
  launchArgv,
  probeBubblewrap,
  projectMount,
  STAGE_DIR,
  systemMountArgs,
} from './bubblewrap';
import { findProjectRoot } from './host';
import { isIsolationCommand, missingCommandsWarning, missingHostCommands } from './host-commands';
import { type IO, type Launched, launchBubblewrap, launchProcess } from './launch';

/** What differs between a bubblewrap box and a plain-process box. */
export interface Isolator {
  readonly isolation: BoxIsolation;
  /** Said at every creation and in BoxInfo when the boxes are not isolated. */
  readonly warning?: string;
  /** The box's whole environment. */
  env(spec: BoxSpec): Record<string, string>;
  /** Makes the box's folders its own before it starts (a mapped box's root owns them). */
  prepareDirs(spec: BoxSpec): Promise<void>;
  launch(spec: BoxSpec, env: Record<string, string>, prefix: string[], io: IO): Promise<Launched>;
  /** argv, host-side env and cwd of a new process inside a running box. */
  exec(box: ExecTarget, argv: string[], env: Record<string, string>, cwd?: string): ExecPlan;
}

export interface ExecTarget {
  nsInitPid: number | null;
  workspaceDir: string;
}
export interface ExecPlan {
  argv: string[];
  env: Record<string, string>;
  cwd?: string;
}

export const NOT_ISOLATED_WARNING =
  'NOT ISOLATED: bubblewrap is unusable, so this box is a plain process that shares the ' +
  "control plane's user, files and network";

/** Host-side programs (the cgroup wrapper, bwrap, nsenter) get only this: no LD_PRELOAD & co. */
const HOST_ENV = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' };

export class BubblewrapIsolator implements Isolator {
  readonly isolation = 'bubblewrap';
  private readonly systemMounts = systemMountArgs();

  /** `identity` null: bwrap's own user namespace (the control plane is not root). */
  constructor(
    private readonly tools: BwrapTools,
    private readonly projectRoot: string,
    private readonly privateDirs: string[],
    readonly identity: BoxIdentity | null,
  ) {}

  env(spec: BoxSpec): Record<string, string> {
    const paths = {
      workspace: BOX_MOUNTS.workspace,
      gatewaySocket: BOX_PATHS.gatewaySocket,
      edgeSocket: BOX_EDGE.socket,
      edgeUrl: BOX_EDGE.url,
    };
    return boxEnv(spec.sessionId, spec.env, paths, { SESSIONBOXER_ISOLATION: 'bubblewrap' });
  }

  async prepareDirs(spec: BoxSpec): Promise<void> {
    if (this.identity) await giveToBox(this.identity, spec.workspaceDir, spec.gatewaySocketDir);
  }

  async launch(spec: BoxSpec, env: Record<string, string>, prefix: string[], io: IO) {
    // Worked out at each start: a private file made after the driver opened (the audit key at a
    // first start) is hidden as soon as it exists.
    const project = projectMount(this.projectRoot, this.privateDirs);
    const plan = { ...spec, systemMounts: this.systemMounts, project, env };
    const held = this.identity ? await holdUserNamespace(this.tools.unshare, this.identity) : null;
    const user: BoxUser = held ? { kind: 'mapped', userns: held.path } : { kind: 'own' };
    try {
      const hosts = hostBinds(plan).map((b) => b.host);
      const argv = launchArgv(this.tools, hosts, boxArgs(plan, user), user);
      return await launchBubblewrap([...prefix, ...argv], { ...io, env: HOST_ENV });
    } finally {
      held?.release(); // the box holds its namespace now (or never will)
    }
  }

  exec(box: ExecTarget, argv: string[], env: Record<string, string>, cwd?: string): ExecPlan {
    if (box.nsInitPid === null) throw new Error('bubblewrap box without a namespace pid');
    const inBox = execArgv(this.tools, box.nsInitPid, argv, cwd ?? BOX_MOUNTS.workspace, env);
    return { argv: inBox, env: HOST_ENV };
  }
}

/**
 * No isolation at all: the command runs on the host as the control plane's user, with the
 * workspace as its cwd and HOME. Every box shares the host's network (two daemons cannot
 * both listen on 127.0.0.1:7000) and file system.
 */
export class ProcessIsolator implements Isolator {
  readonly isolation = 'process';
  readonly warning = NOT_ISOLATED_WARNING;

  prepareDirs(): Promise<void> {
    return Promise.resolve();
  }

  env(spec: BoxSpec): Record<string, string> {
    const gatewaySocket = path.join(spec.gatewaySocketDir, path.basename(BOX_PATHS.gatewaySocket));
    const edgeSocket = path.join(spec.gatewaySocketDir, path.basename(BOX_EDGE.socket));
    // It shares the host's network (and its daemon's edge takes a free port): no proxy to name.
    const paths = { workspace: spec.workspaceDir, gatewaySocket, edgeSocket, edgeUrl: null };
    return boxEnv(spec.sessionId, spec.env, paths, { SESSIONBOXER_ISOLATION: 'process' });
  }

  launch(spec: BoxSpec, env: Record<string, string>, prefix: string[], io: IO) {
    // It outlives the control plane, as a bubblewrap box does (no parent-death signal).
    const argv = [...prefix, ...spec.command];
    return launchProcess(argv, { ...io, env, cwd: spec.workspaceDir });
  }

  exec(box: ExecTarget, argv: string[], env: Record<string, string>, cwd?: string): ExecPlan {
    // Paths under /workspace mean the box's workspace, as they would in a bubblewrap box.
    const ws = BOX_MOUNTS.workspace;
    const mapped =
      cwd === undefined || !(cwd === ws || cwd.startsWith(`${ws}/`))
        ? cwd
        : path.join(box.workspaceDir, cwd.slice(ws.length));
    return { argv, env, cwd: mapped ?? box.workspaceDir };
  }
}

export interface IsolatorChoice {
  isolation: 'auto' | BoxIsolation;
  projectRoot?: string;
  /** Host folders and files a box must not see even inside the project (data, logs, the audit key). */
  privateDirs: string[];
  /** The boxes' host id range when the control plane is root (default DEFAULT_BOX_IDENTITY). */
  identity?: BoxIdentity;
  warn(message: string): void;
}

/** Probes bubblewrap once; 'auto' falls back to plain processes, 'bubblewrap' insists. */
export async function chooseIsolator(choice: IsolatorChoice): Promise<Isolator> {
  const missing = missingHostCommands().filter(
    (c) => choice.isolation !== 'process' || !isIsolationCommand(c.command),
  );
  const lacking = missingCommandsWarning(missing);
  if (lacking) choice.warn(lacking);
  if (choice.isolation === 'process') return new ProcessIsolator();
  const tools = findBwrapTools();
  const identity = process.getuid?.() === 0 ? (choice.identity ?? DEFAULT_BOX_IDENTITY) : null;
  const root = path.resolve(choice.projectRoot ?? findProjectRoot());
  const why = tools
    ? (projectProblem(root, identity) ?? (await probe(tools, identity)))
    : 'bwrap, nsenter, setpriv or unshare not found';
  if (tools && why === null) {
    return new BubblewrapIsolator(tools, root, choice.privateDirs, identity);
  }
  if (choice.isolation === 'bubblewrap') throw new Error(`bubblewrap is unusable: ${why}`);
  choice.warn(`bubblewrap is unusable (${why}): boxes will be plain processes, NOT isolated`);
  return new ProcessIsolator();
}

/** A mapped box's root is an unprivileged host uid: it reads the project as "other" does. */
function projectProblem(root: string, identity: BoxIdentity | null): string | null {
  if (!identity) return null;
  const mode = statSync(root).mode & 0o777;
  if ((mode & 0o005) === 0o005) return null;
  return (
    `boxes run as host uid ${identity.uid} and cannot read the project at ${root} ` +
    `(mode ${mode.toString(8)}): make it world-readable (chmod o+rx)`
  );
}

async function probe(tools: BwrapTools, identity: BoxIdentity | null): Promise<string | null> {
  if (!identity) return probeBubblewrap(tools, { kind: 'own' });
  const problem = identityProblem(identity);
  if (problem) return problem;
  // The mount point of every mapped box's stage (empty on the host: each box mounts a tmpfs
  // on it in a mount namespace of its own).
  mkdirSync(STAGE_DIR, { recursive: true, mode: 0o755 });
  const held = await holdUserNamespace(tools.unshare, identity).catch((e: Error) => e);
  if (held instanceof Error) return held.message;
  try {
    return await probeBubblewrap(tools, { kind: 'mapped', userns: held.path });
  } finally {
    held.release();
  }
}
