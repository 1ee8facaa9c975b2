/**
 * `npm run bench:desktop`: the desktop MCP server on a real 1024×768 Xvfb with two busy xterms
 * on it, driven by a real MCP client over stdio, one figure a line:
 *
 *   - screenshot: MCP call → PNG answer, p50/p99 (goal p50 < 100 ms), and its parts (xwd, XWD→PNG)
 *   - zoom: MCP call → PNG answer, p50/p99
 *   - left_click round trip, MCP call → OK: glide off (a jump), and glide on over 300 px
 *     (whose floor is the glide itself, ~160 ms)
 *   - encode time per recorded minute: stop_recording's work on a busy desktop
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { decodeXwd } from '../../apps/box-agent/src/desktop/xwd';
import { encodePng } from '../../apps/box-agent/src/desktop/png';
import {
  imageOf,
  startDesktopServer,
  type DesktopClient,
} from '../../apps/box-agent/src/desktop/test/desktop-client';
import { startTestX, type TestX } from '../../apps/box-agent/src/desktop/test/x-server';

const SHOTS = Number(process.env.BENCH_SHOTS ?? 200);
const CLICKS = Number(process.env.BENCH_CLICKS ?? 200);
const WARMUP = 10;

const now = (): number => Number(process.hrtime.bigint()) / 1e6;
const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
function report(label: string, xs: number[]): void {
  console.log(
    `${label.padEnd(44)} p50 ${pct(xs, 50).toFixed(1)} ms   p99 ${pct(xs, 99).toFixed(1)} ms`,
  );
}

async function times(n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) await fn(i);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = now();
    await fn(i);
    out.push(now() - t);
  }
  return out;
}

function xwd(display: string): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    execFile(
      'xwd',
      ['-root', '-silent'],
      { encoding: 'buffer', maxBuffer: 64 << 20, env: { ...process.env, DISPLAY: display } },
      (e, out) => (e ? reject(new Error(e.message)) : resolve(out)),
    ),
  );
}

async function call(desk: DesktopClient, name: string, args: Record<string, unknown> = {}) {
  const result = await desk.call(name, args);
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result;
}

async function screenBench(x: TestX, desk: DesktopClient): Promise<void> {
  const shot = imageOf(await call(desk, 'screenshot'));
  console.log(
    `screenshot PNG: ${shot.width}×${shot.height}, ${(shot.bytes.length / 1024).toFixed(0)} KB`,
  );
  report('screenshot (MCP call → PNG)', await times(SHOTS, () => call(desk, 'screenshot')));
  report('  of which xwd -root', await times(SHOTS, () => xwd(x.display)));
  const file = await xwd(x.display);
  report(
    '  of which XWD → PNG (TypeScript, deflate 1)',
    await times(SHOTS, () => encodePng(decodeXwd(file))),
  );
  const region = { region: [100, 100, 356, 292] };
  report(
    'zoom 256×192 → 1024×768 (MCP call → PNG)',
    await times(SHOTS / 2, () => call(desk, 'zoom', region)),
  );
}

async function clickBench(x: TestX): Promise<void> {
  for (const glide of ['0', '1']) {
    const desk = await startDesktopServer({ DISPLAY: x.display, SESSIONBOXER_MOUSE_GLIDE: glide });
    try {
      // Alternating 300 px apart on the bare root, so every click moves the pointer.
      const at = (i: number) => ({ coordinate: [i % 2 ? 700 : 400, 700] });
      const label =
        glide === '1'
          ? 'left_click round trip, glide on (300 px)'
          : 'left_click round trip, glide off';
      report(
        label,
        await times(glide === '1' ? CLICKS / 4 : CLICKS, (i) => call(desk, 'left_click', at(i))),
      );
      if (glide === '0') {
        report('left_click in place, no move', await times(CLICKS, () => call(desk, 'left_click')));
        report('cursor_position', await times(CLICKS, () => call(desk, 'cursor_position')));
      }
    } finally {
      await desk.close();
    }
  }
}

const RECORD_SECONDS = Number(process.env.BENCH_RECORD_SECONDS ?? 20);

/** Records the busy desktop with three captions, then times stop_recording's finishing work. */
async function encodeBench(x: TestX, desk: DesktopClient): Promise<void> {
  const busy = ['sh', '-c', 'while :; do ls -la /usr/bin | tail -40; sleep 0.2; done'];
  await x.xterm('scroller', '80x24+300+300', busy);
  await call(desk, 'start_recording');
  for (let i = 1; i <= 3; i++) {
    await call(desk, 'annotate_recording', { text: `Step ${i} of the benchmark` });
    await new Promise((r) => setTimeout(r, (RECORD_SECONDS * 1000) / 3));
  }
  const t = now();
  const result = await call(desk, 'stop_recording', { narrate: false });
  const stopMs = now() - t;
  const text = (result.content as { type: string; text?: string }[]).find((c) => c.type === 'text');
  const done = JSON.parse(text?.text ?? '{}') as { recordedSeconds: number; seconds: number };
  const perMinute = (stopMs / 1000 / done.recordedSeconds) * 60;
  console.log(
    `${'stop_recording (captions, condense, encode)'.padEnd(44)} ${(stopMs / 1000).toFixed(1)} s for ${done.recordedSeconds.toFixed(1)} s recorded (${done.seconds.toFixed(1)} s final): ${perMinute.toFixed(1)} s per recorded minute`,
  );
}

async function main(): Promise<void> {
  const x = await startTestX();
  try {
    const busy = ['sh', '-c', 'ls -laR /usr/lib | head -400; exec sleep 600'];
    await x.xterm('left', '100x45+0+0', busy);
    await x.xterm(
      'right',
      '60x30+600+80',
      ['sh', '-c', 'cat /etc/services; exec sleep 600'],
      ['-bg', 'navy', '-fg', 'yellow'],
    );
    // Outside a box the recordings need a workspace of their own.
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-desktop-'));
    const desk = await startDesktopServer({
      DISPLAY: x.display,
      SESSIONBOXER_SCREEN: '1024x768',
      SESSIONBOXER_WORKSPACE: workspace,
    });
    try {
      await screenBench(x, desk);
      await encodeBench(x, desk);
    } finally {
      await desk.close();
      fs.rmSync(workspace, { recursive: true, force: true });
    }
    await clickBench(x);
  } finally {
    await x.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
