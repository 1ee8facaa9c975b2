/**
 * `npm run bench:desktop-view`: the live desktop view's frame latency through the whole path
 * a person's browser uses: a real box (bubblewrap, its Xvfb), its x11vnc, the box's
 * desktop-view socket, the control plane's relay and a WebSocket client speaking RFB like
 * noVNC (incremental updates, raw rectangles). Each round maps or unmaps a 300×200 window in
 * the box with xdotool and waits for the update that covers it. Goal (issue 17): p50 < 150 ms.
 *
 *   - from xdotool's exit (the screen has changed) to the update's last byte;
 *   - from xdotool's start (the change happens somewhere inside it) to the same.
 */
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WebSocket } from 'ws';
import { RfbProbe, webSocketWire } from '../../apps/box-agent/src/desktop-view/test/rfb-probe';
import type { LocalBoxDriver } from '../../apps/control-plane/src/boxes/driver';
import { BOX_DRIVER } from '../../apps/control-plane/src/infrastructure/tokens';
import { waitForBox } from '../../apps/control-plane/test/box-kit';
import { startApp } from '../../apps/control-plane/test/harness';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 60);
const WINDOW = { x: 100, y: 100, w: 300, h: 200 };

const now = (): number => Number(process.hrtime.bigint()) / 1e6;
const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const report = (label: string, xs: number[]) =>
  console.log(
    `${label.padEnd(52)} p50 ${pct(xs, 50).toFixed(1)} ms   p99 ${pct(xs, 99).toFixed(1)} ms`,
  );

function output(child: ChildProcess): Promise<string> {
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.on('close', () => resolve(out)));
}

const stage = (what: string) => console.error(`… ${what}`);

async function main(): Promise<void> {
  setTimeout(() => {
    console.error('the bench did not finish within 5 minutes');
    process.exit(1);
  }, 300_000).unref();
  const api = await startApp(undefined, { SESSIONBOXER_BOXES: 'on' });
  const children: ChildProcess[] = [];
  try {
    const id = (await api.request('POST', '/api/sessions', { title: 'Bench view' })).body.id;
    const workspace = (await waitForBox(api, id)).box.workspacePath;
    const mcp = JSON.parse(fs.readFileSync(path.join(workspace, '.mcp.json'), 'utf8'));
    const env = { DISPLAY: mcp.mcpServers.desktop.env.DISPLAY as string };
    const driver = api.app.get<LocalBoxDriver>(BOX_DRIVER);
    const geometry = `${WINDOW.w}x${WINDOW.h}+${WINDOW.x}+${WINDOW.y}`;
    children.push(
      driver.exec(id, ['/usr/bin/xev', '-geometry', geometry, '-event', 'structure'], { env }),
    );
    const search = [
      '/usr/bin/xdotool',
      'search',
      '--sync',
      '--onlyvisible',
      '--name',
      'Event Tester',
    ];
    stage('the box is up; looking for the xev window');
    const windowId = (await output(driver.exec(id, search, { env }))).trim().split('\n')[0];
    if (!/^\d+$/.test(windowId)) throw new Error(`no xev window: ${windowId}`);

    const ws = new WebSocket(`${api.url.replace(/^http/, 'ws')}/api/desktop-view?session=${id}`, {
      headers: api.authHeaders,
    });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    stage('view open');
    const rfb = new RfbProbe(webSocketWire(ws));
    await rfb.handshake();
    rfb.requestUpdate(false);
    await rfb.update();

    stage('first frame');
    const covers = (r: { x: number; y: number; w: number; h: number }) =>
      r.x < WINDOW.x + WINDOW.w &&
      r.x + r.w > WINDOW.x &&
      r.y < WINDOW.y + WINDOW.h &&
      r.y + r.h > WINDOW.y;
    const fromExit: number[] = [];
    const fromStart: number[] = [];
    for (let i = 0; i < ROUNDS + 5; i++) {
      rfb.requestUpdate(true);
      const action = i % 2 === 0 ? 'windowunmap' : 'windowmap';
      const start = now();
      await output(driver.exec(id, ['/usr/bin/xdotool', action, '--sync', windowId], { env }));
      const exited = now();

      for (;;) {
        const rects = await rfb.update();

        if (rects.some(covers)) break;
        rfb.requestUpdate(true);
      }
      const seen = now();
      if (i < 5) continue; // warm-up
      fromExit.push(seen - exited);
      fromStart.push(seen - start);
    }
    console.log(`live desktop view, ${ROUNDS} rounds, 1024x768, raw encoding over the relay`);
    report('frame latency from the change (xdotool exit)', fromExit);
    report('frame latency from xdotool start (upper bound)', fromStart);
    ws.close();
  } finally {
    for (const c of children) c.kill('SIGKILL');
    await api.close();
    fs.rmSync(api.dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
