import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { randomInt } from 'node:crypto';
import type { ScreenSize } from '@sessionboxer/mcp-adapters/desktop';

/** A real Xvfb for one test file, on a display number it picks itself; stop() ends it all. */
export interface TestX {
  display: string;
  screen: ScreenSize;
  /** Opens an xterm titled `title` running argv `command`, once it is on screen. */
  xterm(
    title: string,
    geometry: string,
    command: string[],
    extra?: string[],
  ): Promise<ChildProcess>;
  /** Records what the root window sees (pointer, buttons, keys) until the returned stop(). */
  xev(): Promise<XevRecorder>;
  /** Runs xdotool on this display (test-side checks only). */
  xdotool(args: string[]): Promise<string>;
  stop(): Promise<void>;
}

export interface XevEvent {
  type: string;
  x: number;
  y: number;
  time: number;
  button?: number;
  keysym?: string;
  state?: number;
}

export interface XevRecorder {
  events(): XevEvent[];
  stop(): Promise<void>;
}

function ended(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

function exec(cmd: string, args: string[], display: string, timeout = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, DISPLAY: display };
    execFile(cmd, args, { env, timeout }, (e, out, err) =>
      e ? reject(new Error(`${cmd} ${args.join(' ')}: ${err || e.message}`)) : resolve(out),
    );
  });
}

/** Xvfb as the daemon starts it, but with -displayfd choosing a free number (tests run outside a box). */
async function spawnXvfb(
  screen: ScreenSize,
  fixedNumber?: number,
): Promise<{ xvfb: ChildProcess; display: string }> {
  const size = `${screen.width}x${screen.height}x24`;
  const fixed = fixedNumber === undefined ? [] : [`:${fixedNumber}`];
  const xvfb = spawn(
    'Xvfb',
    [...fixed, '-displayfd', '3', '-screen', '0', size, '-nolisten', 'tcp', '-noreset'],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  xvfb.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const number = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Xvfb did not start: ${stderr}`)), 10_000);
    let out = '';
    (xvfb.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => {
      out += d.toString();
      if (!out.includes('\n')) return;
      clearTimeout(timer);
      resolve(out.trim());
    });
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited ${code}: ${stderr}`)));
  });
  return { xvfb, display: `:${number}` };
}

async function recordXev(display: string, children: ChildProcess[]): Promise<XevRecorder> {
  const args = ['-root', '-event', 'mouse', '-event', 'button', '-event', 'keyboard'];
  const child = spawn('xev', args, {
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, DISPLAY: display },
  });
  children.push(child);
  let text = '';
  child.stdout?.on('data', (d: Buffer) => (text += d.toString()));
  // xev prints nothing until it is listening; a short pause lets it select the events.
  await new Promise((r) => setTimeout(r, 300));
  const start = text.length;
  return {
    events: () => parseXev(text.slice(start)),
    stop: async () => {
      child.kill('SIGKILL');
      await ended(child);
    },
  };
}

/** `number` fixes the display number (to start a second server where a first one died). */
export async function startTestX(
  screen: ScreenSize = { width: 1024, height: 768 },
  number?: number,
): Promise<TestX> {
  const { xvfb, display } = await spawnXvfb(screen, number);
  const children: ChildProcess[] = [];
  const env = { ...process.env, DISPLAY: display };
  return {
    display,
    screen,
    xterm: async (title, geometry, command, extra = []) => {
      const args = ['-T', title, '-geometry', geometry, ...extra, '-e', ...command];
      const child = spawn('xterm', args, { stdio: 'ignore', env });
      children.push(child);
      await exec('xdotool', ['search', '--sync', '--onlyvisible', '--name', `^${title}$`], display);
      return child;
    },
    xev: () => recordXev(display, children),
    xdotool: (args) => exec('xdotool', args, display),
    stop: async () => {
      for (const child of children) child.kill('SIGKILL');
      await Promise.all(children.map(ended));
      xvfb.kill('SIGTERM');
      await ended(xvfb);
    },
  };
}

/** xev's blocks ("MotionNotify event, …\n    root …, time 123, (x,y), …") as events. */
export function parseXev(text: string): XevEvent[] {
  return text
    .split(/\n\n/)
    .map((block) => {
      const head = /^(\w+) event,/.exec(block.trim());
      const where = /time (\d+), \((-?\d+),(-?\d+)\)/.exec(block);
      if (!head || !where) return null;
      const button = /button (\d+)/.exec(block);
      const keysym = /keysym 0x[0-9a-f]+, (\w+)\)/.exec(block);
      const state = /state 0x([0-9a-f]+)/.exec(block);
      return {
        type: head[1],
        time: Number(where[1]),
        x: Number(where[2]),
        y: Number(where[3]),
        ...(button ? { button: Number(button[1]) } : {}),
        ...(keysym ? { keysym: keysym[1] } : {}),
        ...(state ? { state: parseInt(state[1], 16) } : {}),
      };
    })
    .filter((e): e is XevEvent => e !== null);
}

/** A display number no X server here uses now (for the daemon, which takes a fixed one). */
export function freeDisplayNumber(): number {
  for (let tries = 0; tries < 100; tries++) {
    const n = randomInt(200, 900);
    if (!existsSync(`/tmp/.X${n}-lock`) && !existsSync(`/tmp/.X11-unix/X${n}`)) return n;
  }
  throw new Error('no free display number between 200 and 900');
}
