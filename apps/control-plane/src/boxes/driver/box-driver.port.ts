import type { ChildProcess } from 'node:child_process';
import { DomainError, ErrorCode } from '@sessionboxer/domain/kernel/errors';
import type { BoxLimits, BoxLimitsInfo } from './resource-limits';
export type { BoxLimits, BoxLimitsInfo, LimitMechanism } from './resource-limits';

/**
 * The boxes port: one box per session, a workspace folder and the processes that run in it.
 * The local driver (bubblewrap, or plain processes when bubblewrap is unusable) implements it
 * here; a container driver can implement it for scale-out and pass the same tests.
 */

export interface BoxSpec {
  /** uuid; validated before it goes into any path or name. */
  sessionId: string;
  /** Host folder (inside the driver's data dir), seen as /workspace inside the box; created. */
  workspaceDir: string;
  /** Host folder (inside the data dir) holding this box's gateway.sock; /run/sessionboxer inside. */
  gatewaySocketDir: string;
  /** argv of the box's main process (the daemon). Never a shell string. */
  command: string[];
  /** Environment inside the box; nothing of the host's environment leaks in. */
  env: Record<string, string>;
  /**
   * Cpu (cores) and memory (bytes) every process of the box shares, enforced with cgroups
   * (v2, or v1 on a hybrid host); unset: the driver's default, if it has one, else none.
   */
  limits?: BoxLimits;
}

export type BoxStatus = 'running' | 'frozen' | 'exited' | 'destroyed';
export type BoxIsolation = 'bubblewrap' | 'process';

export interface BoxInfo {
  sessionId: string;
  isolation: BoxIsolation;
  /** Host pid of the process the driver spawned (bwrap's outer process, or the command). */
  pid: number;
  status: BoxStatus;
  workspaceDir: string;
  /** Set when the box is not isolated (process fallback): say it wherever the box is shown. */
  warning?: string;
  /** The box's limits, how they are enforced (`none`: not at all) and its OOM kills so far. */
  limits?: BoxLimitsInfo;
}

export interface ExecOptions {
  /** Added over the box's own environment. */
  env?: Record<string, string>;
  /** Working directory inside the box; /workspace by default. */
  cwd?: string;
}

export interface DestroyOptions {
  removeWorkspace?: boolean;
}

export type BoxExitListener = (sessionId: string, code: number | null) => void;

/**
 * A box an earlier control plane of the same data dir left, found when the driver opened:
 * adopted with its processes running or frozen as they were, or `lost` (a host reboot, its
 * processes killed) with its files intact and `reason` saying what was missing.
 */
export interface BoxFound {
  sessionId: string;
  processes: 'running' | 'frozen' | 'lost';
  /** Host pid of the adopted box's main process. */
  pid?: number;
  reason?: string;
}

export interface BoxDriver {
  readonly isolation: BoxIsolation;
  /** Starts the box's main process; resolves once it is spawned (namespaces set up). */
  create(spec: BoxSpec): Promise<BoxInfo>;
  /** Every process of the box stops running; files are kept. */
  freeze(sessionId: string): Promise<void>;
  thaw(sessionId: string): Promise<void>;
  /**
   * Runs `work` with a running box held still (frozen, thawed after), one moment of its files;
   * a box not running is left as it is. A freeze or thaw asked for meanwhile waits for the end,
   * so a box stopped during the hold stays stopped.
   */
  hold<T>(sessionId: string, work: () => T | Promise<T>): Promise<T>;
  /** Kills every process of the box (double-forked and setsid'd ones too). */
  destroy(sessionId: string, opts?: DestroyOptions): Promise<void>;
  /** A new process inside the same box (mounts, network, pid namespace), stdio pipes. */
  exec(sessionId: string, argv: string[], opts?: ExecOptions): ChildProcess;
  info(sessionId: string): BoxInfo | null;
  /** The box's main process ended without destroy/shutdownAll asking for it. */
  onExit(listener: BoxExitListener): void;
  /** Kills every box; workspaces are kept. A control plane that stops or dies leaves boxes be. */
  shutdownAll(): Promise<void>;
  /** What the driver found of boxes an earlier control plane left, once, when it opened. */
  found(): readonly BoxFound[];
  /**
   * Takes over a box another control-plane instance ran (it died): running or frozen as it
   * was, or `lost`; null when there is no such box, or it is this driver's already.
   */
  adopt(sessionId: string): Promise<BoxFound | null>;
  /** Sessions with a box on this data dir, whichever instance runs it. */
  savedBoxes(): string[];
  /** Drops the box from this driver without touching its processes (another instance has it). */
  forget(sessionId: string): void;
}

/** A refusal of the boxes port, mapped to HTTP by the same table as every domain error. */
export class BoxError extends DomainError {
  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(code, message, details);
    this.name = 'BoxError';
  }
}

export const boxNotFound = (sessionId: string): BoxError =>
  new BoxError(ErrorCode.NotFound, `no box for session ${sessionId}`, { sessionId });

export const boxInvalid = (field: string, message: string): BoxError =>
  new BoxError(ErrorCode.ValidationFailed, `${field}: ${message}`, { field });

export const boxInState = (sessionId: string, status: BoxStatus, action: string): BoxError =>
  new BoxError(ErrorCode.InvalidState, `cannot ${action} box ${sessionId}: it is ${status}`, {
    sessionId,
    status,
  });
