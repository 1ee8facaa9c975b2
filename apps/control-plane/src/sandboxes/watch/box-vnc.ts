import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { x11vncArgs } from '../../../../box-agent/src/desktop-view/desktop-views';
import type { BoxDriver, LocalBoxDriver } from '../../boxes';

const STDERR_TAIL = 2000;

export interface BoxVnc {
  /** RFB to and from x11vnc. Its end ends x11vnc (the viewer is gone), and x11vnc's exit ends it. */
  stream: net.Socket;
  child: ChildProcess;
  stderr(): string;
}

/**
 * One x11vnc in a sandbox's box speaking RFB on its stdin (`-inetd`): a sandbox's box has no
 * daemon to open a connection the way a session's does, so the control plane runs it in the
 * box (the driver's exec plan: the same namespaces, argv, no shell). x11vnc -inetd needs a
 * socket on fd 0 (it reads, writes and peeks there), not the driver's one-way pipes: it gets
 * one end of a local socket pair as fd 0 and 1, and the relay the other. Without control it
 * is `-viewonly`: x11vnc itself reads and drops the page's keys and clicks.
 */
export async function openBoxVnc(
  driver: BoxDriver,
  sandboxId: string,
  display: string,
  control: boolean,
): Promise<BoxVnc> {
  const argv = ['x11vnc', ...x11vncArgs(display, control)];
  const plan = execPlanOf(driver).execPlan(sandboxId, argv, { env: { DISPLAY: display } });
  const [ours, theirs] = await socketPair();
  let child: ChildProcess;
  try {
    child = spawn(plan.command, plan.args, {
      env: plan.env,
      cwd: plan.cwd,
      stdio: [theirs, theirs, 'pipe'],
    });
  } catch (e) {
    ours.destroy();
    throw e;
  } finally {
    // x11vnc holds its own copy: ours closing must reach it as its viewer's end.
    theirs.destroy();
  }
  let tail = '';
  child.stderr
    ?.setEncoding('utf8')
    .on('data', (t: string) => (tail = (tail + t).slice(-STDERR_TAIL)));
  ours.on('error', () => undefined);
  ours.once('close', () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  });
  child.once('close', () => ours.destroy());
  child.once('error', (e) => {
    tail += `x11vnc did not start: ${e.message}`;
    ours.destroy();
  });
  return { stream: ours, child, stderr: () => tail };
}

/** Sandboxes run on the local driver (bubblewrap): its exec plan is what a spawn needs. */
function execPlanOf(driver: BoxDriver): Pick<LocalBoxDriver, 'execPlan'> {
  const local = driver as Partial<LocalBoxDriver>;
  if (typeof local.execPlan !== 'function') {
    throw new Error('the live view needs the local box driver');
  }
  return local as Pick<LocalBoxDriver, 'execPlan'>;
}

/** Two connected Unix sockets, through a listener in a private folder removed at once. */
async function socketPair(): Promise<[net.Socket, net.Socket]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-vnc-'));
  const file = path.join(dir, 's');
  const server = net.createServer({ pauseOnConnect: true });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(file, resolve);
    });
    const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
    const ours = net.connect(file);
    await new Promise<void>((resolve, reject) => {
      ours.once('connect', resolve);
      ours.once('error', reject);
    });
    return [ours, await accepted];
  } finally {
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
