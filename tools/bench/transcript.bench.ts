/**
 * `npm run bench:transcript`: lag from a harness event in the box to the transcript read
 * model, at a steady rate. A scripted session emits BENCH_EVENTS messages at BENCH_RATE a
 * second, each stamped with the time the box made it; the bench watches the session over the
 * web UI's live socket (which pushes an entry once the read models have applied it) and
 * reads the recorded events. Prints p50 / p99 of: box → command accepted (the event's `at`),
 * and box → read model, seen at the browser. Needs bubblewrap and dist/ (built by the script).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { WebSocket } from 'ws';
import { createApp, listen } from '../../apps/control-plane/src/app.factory';
import { loadConfig } from '../../apps/control-plane/src/config';
import { TEST_PASSWORD, signIn } from '../../apps/control-plane/test/harness';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 4000);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const line = (label: string, xs: number[]): void =>
  console.log(
    `${label}: p50 ${pct(xs, 50).toFixed(1)} ms, p99 ${pct(xs, 99).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms (n=${xs.length})`,
  );
const wallNow = (): number => performance.timeOrigin + performance.now();

interface LiveEntry {
  kind: string;
  event?: { type: string; text?: string; at?: string };
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-transcript-'));
  const config = loadConfig({
    SESSIONBOXER_PORT: '0',
    SESSIONBOXER_DATA_DIR: dataDir,
    SESSIONBOXER_ADMIN_PASSWORD: TEST_PASSWORD,
  });
  const app = await createApp(config, { logger: ['error'] });
  const base = await listen(app, config);
  const auth = { authorization: `Bearer ${await signIn(base, 'admin', TEST_PASSWORD)}` };
  const api = async (method: string, route: string, body?: unknown): Promise<any> => {
    const res = await fetch(base + route, {
      method,
      headers: { 'content-type': 'application/json', ...auth },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return res.json();
  };
  try {
    const { id } = await api('POST', '/api/sessions', { title: 'Bench', provider: 'scripted' });
    for (let i = 0; (await api('GET', `/api/sessions/${id}`)).box?.status !== 'ready'; i++) {
      if (i > 300) throw new Error('the box never became ready');
      await new Promise((r) => setTimeout(r, 50));
    }
    const seen: number[] = [];
    const accepted: number[] = [];
    let finished = false;
    const ui = new WebSocket(base.replace('http', 'ws') + '/api/ui', { headers: auth });
    ui.on('message', (raw) => {
      const frame = JSON.parse((raw as Buffer).toString()) as { event: string; data: any };
      if (frame.event !== 'transcript') return;
      const at = wallNow();
      for (const entry of frame.data.entries as LiveEntry[]) {
        if (entry.event?.type === 'turn_finished') finished = true;
        if (entry.event?.type !== 'message' || !entry.event.text?.startsWith('{"burst"')) continue;
        const { emittedAt } = JSON.parse(entry.event.text) as { emittedAt: number };
        seen.push(at - emittedAt);
        accepted.push(Date.parse(entry.event.at ?? '') - emittedAt);
      }
    });
    await new Promise((r) => ui.once('open', r));
    ui.send(JSON.stringify({ event: 'watch', data: { sessionId: id, after: -1 } }));
    const started = wallNow();
    await api('POST', `/api/sessions/${id}/prompts`, {
      text: JSON.stringify({ script: [{ burst: { count: EVENTS, rate: RATE } }] }),
    });
    while (!finished) {
      if (wallNow() - started > (EVENTS / RATE) * 1000 + 60_000)
        throw new Error('the turn never finished');
      await new Promise((r) => setTimeout(r, 100));
    }
    ui.close();
    const seconds = (wallNow() - started) / 1000;
    console.log(
      `harness events: ${seen.length} of ${EVENTS} at ${RATE}/s, turn done in ${seconds.toFixed(1)} s`,
    );
    line('box → event recorded (command accepted)', accepted);
    line('box → transcript read model (pushed to the browser)', seen);
    const rss = process.memoryUsage().rss / 1024 / 1024;
    console.log(`control plane rss after the run: ${rss.toFixed(0)} MB`);
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
