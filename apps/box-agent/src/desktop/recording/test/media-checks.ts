import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What ffprobe says about a finished video. */
export function streams(file: string) {
  const out = execFileSync('ffprobe', [
    ...['-v', 'error', '-show_entries', 'stream=codec_type,codec_name,width,height,pix_fmt'],
    ...['-of', 'json', file],
  ]);
  const json = JSON.parse(out.toString()) as { streams: Record<string, any>[] };
  return {
    video: json.streams.find((s) => s.codec_type === 'video'),
    audio: json.streams.find((s) => s.codec_type === 'audio'),
  };
}

/** The top-level MP4 boxes in file order (faststart puts moov before mdat). */
export function topLevelBoxes(file: string): string[] {
  const data = readFileSync(file);
  const boxes: string[] = [];
  for (let at = 0; at + 8 <= data.length;) {
    let size = data.readUInt32BE(at);
    boxes.push(data.toString('latin1', at + 4, at + 8));
    if (size === 1) size = Number(data.readBigUInt64BE(at + 8));
    if (size === 0) break;
    at += size;
  }
  return boxes;
}

/** One frame at `seconds`, as 8-bit gray rows. */
export function grayFrame(file: string, seconds: number, width: number): Buffer[] {
  const raw = execFileSync('ffmpeg', [
    ...['-v', 'error', '-ss', String(seconds), '-i', file, '-frames:v', '1'],
    ...['-f', 'rawvideo', '-pix_fmt', 'gray', '-'],
  ]);
  const rows: Buffer[] = [];
  for (let y = 0; y * width < raw.length; y++) rows.push(raw.subarray(y * width, (y + 1) * width));
  return rows;
}

export const brightPixels = (rows: Buffer[]) =>
  rows.reduce((n, row) => n + row.filter((v) => v > 180).length, 0);

/** Records what is posted to it and answers as the daemon does when the control plane agrees. */
export async function startReportSink() {
  const posts: { url: string; body: any }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      posts.push({ url: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString()) });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, result: { recorded: true } }));
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    posts,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
