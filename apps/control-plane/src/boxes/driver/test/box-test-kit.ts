import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { BoxSpec } from '../box-driver.port';
import { LocalBoxDriver, type LocalBoxDriverOptions } from '../local-box-driver';

/** Real drivers over a throwaway data dir, and helpers to look into boxes from tests. */

export interface Kit {
  dataDir: string;
  driver: LocalBoxDriver;
  warnings: string[];
  logs: string[];
  spec(command: string[], env?: Record<string, string>): BoxSpec;
  /** Destroys every box, then removes the data dir. */
  close(): Promise<void>;
}

export async function openKit(options: Partial<LocalBoxDriverOptions> = {}): Promise<Kit> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'sbx-boxes-'));
  const warnings: string[] = [];
  const logs: string[] = [];
  const logger = { log: (m: string) => logs.push(m), warn: (m: string) => warnings.push(m) };
  const driver = await LocalBoxDriver.open({ dataDir, logger, ...options });
  return {
    dataDir,
    driver,
    warnings,
    logs,
    spec: (command, env = {}) => {
      const sessionId = randomUUID();
      const root = path.join(dataDir, 'boxes', sessionId);
      const workspaceDir = path.join(root, 'workspace');
      return { sessionId, workspaceDir, gatewaySocketDir: path.join(root, 'run'), command, env };
    },
    close: async () => {
      await driver.shutdownAll();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs argv inside the box and collects its output. */
export function runIn(
  driver: LocalBoxDriver,
  sessionId: string,
  argv: string[],
  opts: { env?: Record<string, string>; cwd?: string; input?: string } = {},
): Promise<RunResult> {
  const child = driver.exec(sessionId, argv, { env: opts.env, cwd: opts.cwd });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdin?.on('error', () => undefined); // a command that exits without reading: EPIPE
  child.stdin?.end(opts.input ?? '');
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A POSIX shell snippet run inside the box. */
export const sh = (driver: LocalBoxDriver, sessionId: string, script: string) =>
  runIn(driver, sessionId, ['/bin/sh', '-c', script]);

export async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function lineCount(file: string): number {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').length - 1 : 0;
}

/** Host pids whose command line contains `marker` (how tests find a box's stray processes). */
export function hostPidsWith(marker: string): number[] {
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .filter((n) => {
      try {
        const cmd = readFileSync(`/proc/${n}/cmdline`, 'utf8');
        const state = readFileSync(`/proc/${n}/stat`, 'utf8').split(') ')[1]?.[0];
        return cmd.includes(marker) && state !== 'Z';
      } catch {
        return false;
      }
    })
    .map(Number);
}
