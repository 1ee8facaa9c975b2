import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import type { HarnessOutput } from '@sessionboxer/domain';
import type { LaunchPlan, StreamParser } from './harness.port';

const STDERR_KEPT = 16 * 1024;
const KILL_GRACE_MS = 3000;

/** Writes the plan's files, refusing any path outside the turn's scratch folder. */
export async function writePlanFiles(plan: LaunchPlan, scratchDir: string): Promise<void> {
  for (const [file, content] of Object.entries(plan.files ?? {})) {
    const resolved = path.resolve(file);
    if (!resolved.startsWith(scratchDir + path.sep)) {
      throw new Error(`the harness asked to write ${file}, outside its scratch folder`);
    }
    await fs.mkdir(path.dirname(resolved), { recursive: true });
    await fs.writeFile(resolved, content, { mode: 0o600 });
  }
}

export interface HarnessProcess {
  /** Resolves once the process has exited and its stream has been parsed to the end. */
  done: Promise<void>;
  /** SIGTERM to its process group, SIGKILL after a grace period. */
  stop(): void;
}

/**
 * Runs the harness's argv (no shell) in its own process group, feeds its stdout line by line
 * to the parser and hands every output on as it comes; at exit, the parser's `end` says what
 * is still owed (a failed turn_finished after a crash).
 */
export function runHarnessProcess(
  plan: LaunchPlan,
  options: { cwd: string; env: Record<string, string> },
  parser: StreamParser,
  emit: (outputs: HarnessOutput[]) => void,
  onBug: (message: string) => void,
): HarnessProcess {
  const [file, ...args] = plan.argv;
  const child = spawn(file, args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEPT);
  });
  // A harness that exits before reading its stdin must not crash the daemon with EPIPE.
  child.stdin?.on('error', () => undefined);
  child.stdin?.end(plan.stdin ?? undefined);
  const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
  lines.on('line', (line) => safely(() => emit(parser.line(line)), onBug));
  const done = new Promise<void>((resolve) => {
    let ended = false;
    const end = (code: number | null, signal: string | null, extra = '') => {
      if (ended) return;
      ended = true;
      safely(() => emit(parser.end({ code, signal, stderr: stderr + extra })), onBug);
      resolve();
    };
    child.on('error', (e) => end(null, null, `\n${e.message}`));
    // 'close' comes after stdout has ended, so every line has been parsed by then.
    child.on('close', (code, signal) => end(code, signal));
  });
  let closed = false;
  child.once('close', () => (closed = true));
  return { done, stop: () => stopGroup(child, () => closed) };
}

/**
 * Signals the whole group until its pipes have closed, not merely until the harness exited: a
 * child of the harness that ignores SIGTERM would otherwise keep stdout open, and the turn
 * running, for as long as it likes.
 */
function stopGroup(child: ChildProcess, closed: () => boolean): void {
  const signal = (s: NodeJS.Signals) => {
    if (child.pid === undefined || closed()) return;
    try {
      process.kill(-child.pid, s);
    } catch {
      child.kill(s);
    }
  };
  signal('SIGTERM');
  setTimeout(() => signal('SIGKILL'), KILL_GRACE_MS).unref();
}

/** A parser bug must not take the daemon down; the turn's end still comes from `end`. */
function safely(fn: () => void, onBug: (message: string) => void): void {
  try {
    fn();
  } catch (e) {
    onBug(e instanceof Error ? (e.stack ?? e.message) : String(e));
  }
}
