import type { ChildProcess } from 'node:child_process';
import type { BoxProcesses } from './box-control';
import type { BoxInfo, BoxIsolation, BoxSpec, BoxStatus } from './box-driver.port';
import type { Launched, OutputTail } from './launch';

/** What the local driver keeps about one box. */
export interface BoxRecord {
  spec: BoxSpec;
  info: BoxInfo;
  env: Record<string, string>;
  launched: Launched;
  procs: BoxProcesses;
  execs: Set<ChildProcess>;
  tail: OutputTail;
  /** Set once the box is on its way out (destroy, shutdown, or its main process ended). */
  reaped: Promise<void> | null;
  /** freeze/thaw run one at a time per box. */
  queue: Promise<void>;
}

export interface Started {
  launched: Launched;
  tail: OutputTail;
  /** running for a box just started; what adoption found for one an earlier control plane left. */
  status: Extract<BoxStatus, 'running' | 'frozen'>;
}

export function boxRecord(
  spec: BoxSpec,
  env: Record<string, string>,
  isolation: BoxIsolation,
  { launched, tail, status }: Started,
  warning?: string,
): BoxRecord {
  const { sessionId, workspaceDir } = spec;
  const pid = launched.mainPid;
  const info: BoxInfo = { sessionId, isolation, pid, status, workspaceDir };
  if (warning) info.warning = warning;
  const execs = new Set<ChildProcess>();
  const procs: BoxProcesses = {
    sessionId,
    mainPid: pid,
    nsInitPid: launched.nsInitPid,
    pidNamespace: launched.pidNamespace,
    execPids: () => [...execs].flatMap((c) => (c.pid ? [c.pid] : [])),
  };
  const queue = Promise.resolve();
  return { spec, info, env, launched, procs, execs, tail, reaped: null, queue };
}
