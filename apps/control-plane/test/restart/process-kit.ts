import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { dataDirTag } from '../../src/boxes/driver/controls';
import { findCgroup2Mount } from '../../src/boxes/driver/host';
import { TEST_PASSWORD, signIn, type RunningApp } from '../harness';

/**
 * The control plane as the built process `npm start` runs (dist/), for tests that kill it
 * with SIGKILL and start it again on the same data dir, and a look at its boxes' cgroups.
 */

const root = path.resolve(__dirname, '../../../..');
const entry = path.join(root, 'dist/apps/control-plane/src/main.js');

export interface ControlPlaneProcess {
  child: ChildProcess;
  url: string;
  /** What `RunningApp.request` does, signed in as the test account. */
  api: Pick<RunningApp, 'request'>;
  output(): string;
  /** SIGKILL, resolved once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM (a stop, e.g. `systemctl restart`), resolved with the exit code. */
  stop(): Promise<number | null>;
}

/** `env`: more of the environment (an instance's name, REDIS_URL). */
export async function startControlPlane(
  dataDir: string,
  env: Record<string, string> = {},
): Promise<ControlPlaneProcess> {
  const child = spawn(process.execPath, [entry], {
    cwd: root,
    env: {
      ...process.env,
      EVENTSTORE_URL: '',
      SESSIONBOXER_PORT: '0',
      SESSIONBOXER_DATA_DIR: dataDir,
      SESSIONBOXER_BOXES: 'on',
      SESSIONBOXER_ADMIN_PASSWORD: TEST_PASSWORD,
      SESSIONBOXER_AUDIT_KEY: path.join(dataDir, 'audit-key'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  const stop = () => {
    child.kill('SIGTERM');
    return exited;
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const check = () => {
        const m = /control plane on (http:\/\/\S+) /.exec(out);
        if (m) resolve(m[1]);
      };
      child.stdout?.on('data', check);
      child.stderr?.on('data', check);
      child.once('exit', (code) => reject(new Error(`control plane exited ${code}:\n${out}`)));
    });
    const token = await signIn(url, 'admin', TEST_PASSWORD);
    const api: Pick<RunningApp, 'request'> = {
      async request(method, route, body, headers = {}) {
        const res = await fetch(url + route, {
          method,
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${token}`,
            ...headers,
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await res.text();
        return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
      },
    };
    return { child, url, api, output: () => out, kill, stop };
  } catch (e) {
    await kill();
    throw e;
  }
}

/** The cgroup folder of a box of this data dir (see the driver's README). */
export function boxCgroup(dataDir: string, sessionId: string): string {
  const mount = findCgroup2Mount();
  if (!mount) throw new Error('no cgroup2 mount');
  return path.join(mount, 'sessionboxer', dataDirTag(dataDir), `box-${sessionId}`);
}

/** Host pids in the box's group, each with its command line. */
export function boxProcesses(dataDir: string, sessionId: string): Map<number, string> {
  const procs = new Map<number, string>();
  const file = path.join(boxCgroup(dataDir, sessionId), 'cgroup.procs');
  if (!fs.existsSync(file)) return procs;
  for (const line of fs.readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    try {
      const cmd = fs.readFileSync(`/proc/${line}/cmdline`, 'utf8').split('\0').join(' ');
      procs.set(Number(line), cmd.trim());
    } catch {
      // exited meanwhile
    }
  }
  return procs;
}

/** The pid in the box's group whose command line contains `text`. */
export function pidOf(dataDir: string, sessionId: string, text: string): number | undefined {
  return [...boxProcesses(dataDir, sessionId)].find(([, cmd]) => cmd.includes(text))?.[0];
}

export function isFrozen(dataDir: string, sessionId: string): boolean {
  const events = fs.readFileSync(path.join(boxCgroup(dataDir, sessionId), 'cgroup.events'), 'utf8');
  return /^frozen 1$/m.test(events);
}

/** A host reboot, as far as the box goes: every one of its processes killed, files kept. */
export async function killBox(dataDir: string, sessionId: string): Promise<void> {
  const dir = boxCgroup(dataDir, sessionId);
  if (!fs.existsSync(dir)) return;
  fs.writeFileSync(path.join(dir, 'cgroup.kill'), '1');
  while (/^populated 1$/m.test(fs.readFileSync(path.join(dir, 'cgroup.events'), 'utf8'))) {
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Ends every box group this data dir has (what the test started), then removes them. */
export async function removeAllBoxes(dataDir: string): Promise<void> {
  const mount = findCgroup2Mount();
  if (!mount || !fs.existsSync(dataDir)) return;
  const parent = path.join(mount, 'sessionboxer', dataDirTag(dataDir));
  if (!fs.existsSync(parent)) return;
  for (const name of fs.readdirSync(parent).filter((n) => n.startsWith('box-'))) {
    await killBox(dataDir, name.slice('box-'.length));
    fs.rmdirSync(path.join(parent, name));
  }
  fs.rmdirSync(parent);
}
