import { execFile, spawn } from 'node:child_process';

/**
 * ffmpeg and ffprobe, always as argv (never a shell). A failure says which step failed and ends
 * with ffmpeg's own last lines, which name the cause.
 */

export class MediaError extends Error {}

const MAX_BUFFER = 64 * 1024 * 1024;

function tail(text: string, lines = 8): string {
  return text.trim().split('\n').slice(-lines).join('\n');
}

export function runMedia(
  binary: 'ffmpeg' | 'ffprobe',
  args: string[],
  what: string,
  timeoutMs: number,
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      binary,
      args,
      { timeout: timeoutMs, maxBuffer: MAX_BUFFER, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        if (!error) return resolve({ stdout, stderr });
        const code = (error as NodeJS.ErrnoException).code;
        const why =
          code === 'ENOENT'
            ? `${binary} is not installed in the box`
            : error.killed
              ? `${binary} did not finish within ${Math.round(timeoutMs / 1000)} s`
              : tail(stderr) || error.message;
        reject(new MediaError(`${what} failed: ${why}`));
      },
    );
  });
}

export interface MediaInfo {
  seconds: number;
  width: number;
  height: number;
  hasAudio: boolean;
}

interface ProbeJson {
  format?: { duration?: string };
  streams?: { codec_type?: string; width?: number; height?: number }[];
}

export async function probe(file: string): Promise<MediaInfo> {
  const args = ['-v', 'error', '-show_entries', 'format=duration:stream=codec_type,width,height'];
  const { stdout } = await runMedia(
    'ffprobe',
    [...args, '-of', 'json', file],
    'reading the video',
    30_000,
  );
  const json = JSON.parse(stdout) as ProbeJson;
  const video = json.streams?.find((s) => s.codec_type === 'video');
  const seconds = Number(json.format?.duration);
  if (!video?.width || !video.height || !Number.isFinite(seconds)) {
    throw new MediaError(`${file} holds no video`);
  }
  return {
    seconds,
    width: video.width,
    height: video.height,
    hasAudio: Boolean(json.streams?.some((s) => s.codec_type === 'audio')),
  };
}

/**
 * The times of the frames that differ from the last kept one (ffmpeg's mpdecimate, read from
 * showinfo): everything between two of them is a static stretch. showinfo writes a long line per
 * frame, so its output is read as it comes and only the times are kept.
 */
export function changedFrames(file: string, timeoutMs: number): Promise<number[]> {
  const vf = 'setpts=PTS-STARTPTS,mpdecimate,showinfo';
  const args = [
    '-hide_banner',
    '-nostdin',
    '-i',
    file,
    '-map',
    '0:v:0',
    '-vf',
    vf,
    '-f',
    'null',
    '-',
  ];
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const times: number[] = [];
    let pending = '';
    let last = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const m = /Parsed_showinfo.*?pts_time:\s*([\d.]+)/.exec(line);
        if (m) times.push(Number(m[1]));
        else if (line.trim()) last = line;
      }
    });
    child.on('error', (e) =>
      reject(new MediaError(`finding static stretches failed: ${e.message}`)),
    );
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(times);
      else reject(new MediaError(`finding static stretches failed: ${last || `exit ${code}`}`));
    });
  });
}
