import type { ControlMechanism } from './box-control';
import type { BoxIsolation } from './box-driver.port';
import type { BoxIdentity } from './box-identity';
import type { BoxLimits, LimitMechanism } from './resource-limits';

export interface BoxLogger {
  log(message: string): void;
  warn(message: string): void;
}

export interface LocalBoxDriverOptions {
  /** Every workspace and gateway socket folder must be inside it. */
  dataDir: string;
  /** 'auto' (default): bubblewrap when the probe passes, else plain processes (warned). */
  isolation?: 'auto' | BoxIsolation;
  /** 'auto' (default): the cgroup v2 freezer when usable, else signals. */
  freezer?: 'auto' | ControlMechanism;
  /** 'auto' (default): cgroup v2 limits when usable, else cgroup v1, else none (warned). */
  limits?: 'auto' | LimitMechanism;
  /** Limits of a box whose spec names none (an operator's default for sessions' boxes). */
  defaultLimits?: BoxLimits;
  /** The project mounted read-only at /opt/sessionboxer; found from this file by default. */
  projectRoot?: string;
  /** Parent cgroup of the boxes; `<cgroup2 mount>/sessionboxer` by default. */
  cgroupRoot?: string;
  /** Each box's stdout and stderr go to `<logDir>/box-<sessionId>.log`; `<dataDir>/logs` by default. */
  logDir?: string;
  /** Host ids of the boxes' users when the control plane is root (DEFAULT_BOX_IDENTITY). */
  identity?: BoxIdentity;
  logger?: BoxLogger;
  /**
   * Host files a box must never read although they may lie inside the project it sees
   * read-only (the audit key beside a `./data` dir): each is hidden behind /dev/null.
   */
  privatePaths?: string[];
  /**
   * With several control-plane instances on one data dir: takes the box for this instance, or
   * says another holds it (then its saved state and cgroup are left alone). Unset: every box
   * found is this driver's.
   */
  claim?: (sessionId: string) => Promise<boolean>;
}

/** A process to start inside a box: argv, environment and working folder on the host side. */
export interface BoxExecPlan {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string | undefined;
}
