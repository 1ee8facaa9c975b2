import { readdirSync, readFileSync } from 'node:fs';

/** One process as /proc shows it (Linux: the boxes and the CI machines). */
interface ProcessInfo {
  pid: number;
  ppid: number;
  pgrp: number;
  state: string;
  cmdline: string;
}

function read(pid: number): ProcessInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name in parentheses may hold spaces and parentheses itself.
    const [state, ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
    return { pid, ppid: Number(ppid), pgrp: Number(pgrp), state, cmdline };
  } catch {
    return null; // it exited while we looked
  }
}

/** Live processes: a zombie (exited, not yet reaped by an init that may never reap) is gone. */
function live(): ProcessInfo[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => read(Number(name)))
    .filter((p): p is ProcessInfo => p !== null && p.state !== 'Z');
}

/** The scripted agents this test process started (its direct children). */
export function scriptedAgentPids(): number[] {
  return live()
    .filter((p) => p.ppid === process.pid && p.cmdline.includes('scripted-agent'))
    .map((p) => p.pid);
}

/** Every live process of a process group: a harness and whatever it started. */
export function groupMembers(pgid: number): number[] {
  return live()
    .filter((p) => p.pgrp === pgid)
    .map((p) => p.pid);
}

export function isGone(pid: number): boolean {
  const info = read(pid);
  return info === null || info.state === 'Z';
}
