import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const repoRoot = path.resolve(__dirname, '../../../..');
const mainTs = path.join(repoRoot, 'apps/box-agent/src/main.ts');

/** A temp folder holding a box's workspace and gateway socket; remove() deletes it. */
export function makeBoxDir(): { dir: string; workspace: string; socket: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sbx-daemon-'));
  const workspace = path.join(dir, 'workspace');
  fs.mkdirSync(workspace);
  return {
    dir,
    workspace,
    socket: path.join(dir, 'gateway.sock'),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

export interface DaemonProcess {
  child: ChildProcess;
  url: string;
  port: number;
  stderr(): string;
  /** SIGTERM, then SIGKILL if it lingers; resolves with the exit code. */
  stop(): Promise<number | null>;
  exited: Promise<number | null>;
}

/** The real daemon as the box runs it (through swc), on a free port. */
export async function startDaemonProcess(
  box: { workspace: string; socket: string; dir: string },
  env: Record<string, string> = {},
): Promise<DaemonProcess> {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', mainTs], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      SESSIONBOXER_DAEMON_PORT: '0',
      SESSIONBOXER_EDGE_PORT: '0',
      SESSIONBOXER_EDGE_SOCKET: path.join(box.dir, 'edge.sock'),
      SESSIONBOXER_WORKSPACE: box.workspace,
      SESSIONBOXER_GATEWAY_SOCKET: box.socket,
      SESSIONBOXER_MCP_COMMAND_ROOT: path.join(box.dir, 'mcp'),
      // Outside a box /tmp is shared, so the default display :1 could be anyone's: tests that
      // want the desktop turn it on with a free SESSIONBOXER_DISPLAY.
      SESSIONBOXER_DESKTOP: 'off',
      ...env,
    },
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`daemon not ready: ${stderr}`)), 20_000);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /sessionboxer-daemon ready on (http:\/\/\S+)\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    void exited.then((code) => reject(new Error(`daemon exited ${code}: ${stderr}`)));
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
  return { child, url, port: Number(new URL(url).port), stderr: () => stderr, stop, exited };
}

export async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

export async function waitUntil(check: () => boolean, timeoutMs = 8_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
