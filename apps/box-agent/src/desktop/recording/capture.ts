import { spawn } from 'node:child_process';
import { closeSync, openSync, promises as fs, readFileSync } from 'node:fs';
import { MediaError } from './ffmpeg';
import { pidAlive } from './state';

/**
 * ffmpeg grabbing the X display, detached from the MCP server (its own process group, output to
 * a log file) so it outlives the turn that started it. It writes H.264 in Matroska, which stays
 * readable even if ffmpeg is killed; stop_recording turns it into the .mp4.
 */

export interface CaptureOptions {
  display: string;
  screen: { width: number; height: number };
  fps: number;
  capturePath: string;
  logPath: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const START_WAIT_MS = 8_000;
/** Two hours; stop_recording still finishes what was grabbed. */
export const MAX_RECORDING_SECONDS = 2 * 3600;

function captureArgs(o: CaptureOptions): string[] {
  const even = (n: number) => n - (n % 2);
  return [
    ...['-hide_banner', '-nostdin', '-nostats', '-loglevel', 'warning'],
    ...['-f', 'x11grab', '-draw_mouse', '1', '-framerate', String(o.fps)],
    ...['-video_size', `${o.screen.width}x${o.screen.height}`, '-i', o.display],
    // A recording nobody stops (its server died) ends by itself instead of filling the disk.
    ...['-t', String(MAX_RECORDING_SECONDS)],
    // yuv420p needs even sides: an odd screen loses its last column or row.
    ...['-vf', `crop=${even(o.screen.width)}:${even(o.screen.height)}:0:0`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '18', '-pix_fmt', 'yuv420p'],
    // Each packet reaches the file at once: it grows from the first frame (how start knows
    // ffmpeg is grabbing) and a killed ffmpeg loses nothing it had encoded.
    '-flush_packets',
    '1',
    ...['-f', 'matroska', o.capturePath],
  ];
}

async function fileSize(file: string): Promise<number> {
  return fs.stat(file).then(
    (s) => s.size,
    () => 0,
  );
}

function logTail(logPath: string): string {
  try {
    return readFileSync(logPath, 'utf8').trim().split('\n').slice(-6).join('\n');
  } catch {
    return '';
  }
}

/** Starts ffmpeg and waits until it writes frames; returns its pid. */
export async function startCapture(o: CaptureOptions): Promise<number> {
  const log = openSync(o.logPath, 'a', 0o600);
  let exit: string | null = null;
  try {
    const child = spawn('ffmpeg', captureArgs(o), { detached: true, stdio: ['ignore', log, log] });
    child.on('error', (e) => (exit = e.message));
    child.on('exit', (code, signal) => (exit = `ffmpeg exited (${signal ?? code})`));
    child.unref();
    const deadline = Date.now() + START_WAIT_MS;
    while (exit === null && (await fileSize(o.capturePath)) === 0) {
      if (Date.now() > deadline) {
        if (child.pid !== undefined) await stopCapture(child.pid, o.capturePath);
        throw new MediaError(`ffmpeg did not start grabbing ${o.display} within 8 s`);
      }
      await sleep(30);
    }
    if (exit !== null || child.pid === undefined) {
      const why = exit ?? 'ffmpeg did not start';
      throw new MediaError(`recording ${o.display} failed: ${why} ${logTail(o.logPath)}`.trim());
    }
    return child.pid;
  } finally {
    closeSync(log);
  }
}

/** Whether `pid` is still the ffmpeg writing `capturePath` (a pid can be reused). */
export function captureAlive(pid: number, capturePath: string): boolean {
  if (!pidAlive(pid)) return false;
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return argv.includes(capturePath);
  } catch {
    return false;
  }
}

async function exited(pid: number, capturePath: string, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (captureAlive(pid, capturePath)) {
    if (Date.now() > deadline) return false;
    await sleep(25);
  }
  return true;
}

/**
 * SIGINT, which makes ffmpeg flush the encoder and close the file properly, then wait. Kills the
 * group only when it does not finish; returns a warning then.
 */
export async function stopCapture(pid: number, capturePath: string): Promise<string | undefined> {
  if (!captureAlive(pid, capturePath)) return undefined;
  process.kill(pid, 'SIGINT');
  if (await exited(pid, capturePath, 15_000)) return undefined;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // It ended between the check and the kill.
  }
  await exited(pid, capturePath, 5_000);
  return 'ffmpeg did not finish within 15 s of being asked to stop and was killed; the end of the recording may be missing';
}
