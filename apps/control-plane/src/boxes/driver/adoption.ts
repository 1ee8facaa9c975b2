import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { BoxIsolation, BoxSpec } from './box-driver.port';
import { procStat } from './host';
import type { ExitStatus, Launched } from './launch';

/**
 * Boxes outlive the control plane. What the next control plane of the same data dir needs to
 * take a box back (its spec, environment, and which host processes are its main process and
 * its namespace init) is saved in `<dataDir>/box-state/<sessionId>.json` (0600, in the 0700
 * data dir) when the box starts, and removed when it ends. A pid counts as the same process
 * only with the same start time, so a pid reused after a reboot is never mistaken for a box.
 */

export interface SavedBox {
  version: 1;
  spec: BoxSpec;
  env: Record<string, string>;
  isolation: BoxIsolation;
  mainPid: number;
  mainStart: string;
  nsInitPid: number | null;
  nsInitStart: string | null;
  pidNamespace: string | null;
}

export function boxStateDir(dataDir: string): string {
  return path.join(dataDir, 'box-state');
}

/** The saved box of a launch, read while its processes certainly run. */
export function savedBox(
  spec: BoxSpec,
  env: Record<string, string>,
  isolation: BoxIsolation,
  launched: Launched,
): SavedBox {
  const { mainPid, nsInitPid, pidNamespace } = launched;
  const mainStart = procStat(mainPid)?.startTime ?? '';
  const nsInitStart = nsInitPid === null ? null : (procStat(nsInitPid)?.startTime ?? '');
  return {
    version: 1,
    spec,
    env,
    isolation,
    mainPid,
    mainStart,
    nsInitPid,
    nsInitStart,
    pidNamespace,
  };
}

export function saveBox(dir: string, box: SavedBox): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `${box.spec.sessionId}.json`);
  writeFileSync(`${file}.tmp`, JSON.stringify(box), { mode: 0o600 });
  renameSync(`${file}.tmp`, file); // never half a file, whenever the control plane dies
}

export function forgetBox(dir: string, sessionId: string): void {
  rmSync(path.join(dir, `${sessionId}.json`), { force: true });
}

/** Every saved box; a file that does not parse as one is removed and named in `bad`. */
export function savedBoxes(dir: string): { boxes: SavedBox[]; bad: string[] } {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return { boxes: [], bad: [] };
  }
  const boxes: SavedBox[] = [];
  const bad: string[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    const box = name.endsWith('.json') ? parse(file) : null;
    if (box && name === `${box.spec.sessionId}.json`) boxes.push(box);
    else {
      bad.push(name);
      rmSync(file, { force: true });
    }
  }
  return { boxes, bad };
}

/** One box's saved state, or null when there is none (or it does not parse). */
export function readSavedBox(dir: string, sessionId: string): SavedBox | null {
  const box = parse(path.join(dir, `${sessionId}.json`));
  return box?.spec.sessionId === sessionId ? box : null;
}

/** The sessions whose boxes have a saved state (any instance's). */
export function savedBoxIds(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((n) => n.endsWith('.json'))
      .map((n) => n.slice(0, -'.json'.length));
  } catch {
    return [];
  }
}

function parse(file: string): SavedBox | null {
  try {
    const box = JSON.parse(readFileSync(file, 'utf8')) as SavedBox;
    const ok =
      box.version === 1 &&
      typeof box.spec?.sessionId === 'string' &&
      Number.isInteger(box.mainPid) &&
      (box.nsInitPid === null || Number.isInteger(box.nsInitPid));
    return ok ? box : null;
  } catch {
    return null;
  }
}

/** The same process still runs: same pid, same start time, not a zombie. */
export function sameProcess(pid: number, startTime: string | null): boolean {
  const stat = procStat(pid);
  return stat !== null && stat.startTime === startTime && stat.state !== 'Z' && stat.state !== 'X';
}

/** Why the saved box's processes are not the ones it started, or null when they are. */
export function whyGone(box: SavedBox): string | null {
  if (!sameProcess(box.mainPid, box.mainStart)) return `its main process ${box.mainPid} is gone`;
  if (box.nsInitPid !== null && !sameProcess(box.nsInitPid, box.nsInitStart)) {
    return `its namespace init ${box.nsInitPid} is gone`;
  }
  return null;
}

const WATCH_MS = 250;

/**
 * A box this control plane did not spawn: no child to wait for, so its main process is
 * watched in /proc (an unref'd timer: it keeps no process alive). Its exit code is unknown.
 */
export function adoptedLaunch(box: SavedBox): Launched {
  const { mainPid, mainStart } = box;
  const exited = new Promise<ExitStatus>((resolve) => {
    const timer = setInterval(() => {
      if (sameProcess(mainPid, mainStart)) return;
      clearInterval(timer);
      resolve({ code: null, signal: null });
    }, WATCH_MS);
    timer.unref();
  });
  const kill = () => {
    if (!sameProcess(mainPid, mainStart)) return;
    try {
      process.kill(mainPid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  };
  return { mainPid, kill, exited, nsInitPid: box.nsInitPid, pidNamespace: box.pidNamespace };
}
