import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LocalBoxDriver } from '../../src/boxes/driver';
import { BOX_DRIVER } from '../../src/infrastructure/tokens';
import type { RunningApp } from '../harness';

/** Every file under a folder, recursively (logs, read models, the box's workspace…). */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const full = path.join(dir, d.name);
    if (d.isDirectory()) return filesUnder(full);
    return d.isFile() ? [full] : [];
  });
}

/**
 * The files under `dir` whose bytes hold `secret`. A file removed between the listing and
 * the read (Claude Code drops its session lock files as the turn ends) holds nothing.
 */
export function filesHolding(dir: string, secret: string): string[] {
  return filesUnder(dir).filter((f) => readIfThere(f)?.includes(secret) ?? false);
}

function readIfThere(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** The session's workspace folder on the host. */
export async function workspaceOf(api: RunningApp, sessionId: string): Promise<string> {
  const session = (await api.request('GET', `/api/sessions/${sessionId}`)).body;
  return path.dirname(session.box.mcpJsonPath as string);
}

// Constant text: every process's environment, one variable a line, a blank line between.
const ENVIRONS =
  'for f in /proc/[0-9]*/environ; do tr "\\000" "\\n" < "$f" 2>/dev/null; echo; done';

/**
 * The environment of every process running in the box now, read from inside it
 * (`/proc/*\/environ` as the box's root sees them): the daemon, its MCP servers, the harness.
 */
export async function boxEnvirons(api: RunningApp, sessionId: string): Promise<string> {
  const driver = api.app.get<LocalBoxDriver>(BOX_DRIVER);
  const child = driver.exec(sessionId, ['/bin/sh', '-c', ENVIRONS]);
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`reading the box's /proc/*/environ exited with ${code}`);
  return out;
}
