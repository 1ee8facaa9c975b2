/**
 * `npm run bench:restart`: the control plane (the built process) killed with SIGKILL under
 * BENCH_BOXES (20) running boxes, started again on the same data dir: how long after the kill
 * each box's daemon is back (its BoxReady), p50 and max, over BENCH_ROUNDS (3) kills, and how
 * long the process takes to listen again. Needs bubblewrap, cgroup v2 and dist/ (npm run build).
 */
import * as fs from 'node:fs';
import { tempDataDir } from '../../apps/control-plane/test/harness';
import {
  type ControlPlaneProcess,
  removeAllBoxes,
  startControlPlane,
} from '../../apps/control-plane/test/restart/process-kit';

const BOXES = Number(process.env.BENCH_BOXES ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const line = (label: string, v: number, unit = 'ms'): void =>
  console.log(`${label}: ${v.toFixed(0)} ${unit}`);

type Api = ControlPlaneProcess['api'];

async function boxStatus(api: Api, id: string): Promise<string | undefined> {
  return ((await api.request('GET', `/api/sessions/${id}`)).body as { box?: { status: string } })
    .box?.status;
}

async function allReady(api: Api, ids: string[], ms = 120_000): Promise<void> {
  const until = Date.now() + ms;
  for (const id of ids) {
    while ((await boxStatus(api, id)) !== 'ready') {
      if (Date.now() > until) throw new Error(`box ${id} not ready in ${ms} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** When (epoch ms) the box's daemon was last recorded ready. */
async function readyAt(api: Api, id: string): Promise<number> {
  const { events } = (await api.request('GET', `/api/streams/box-${id}/events?limit=1000`))
    .body as { events: { type: string; data: { at: string } }[] };
  const ready = events.filter((e) => e.type === 'BoxReady').at(-1);
  return ready ? Date.parse(ready.data.at) : NaN;
}

async function main(): Promise<void> {
  const dataDir = tempDataDir();
  let cp = await startControlPlane(dataDir);
  try {
    const ids: string[] = [];
    for (let i = 0; i < BOXES; i++) {
      const res = await cp.api.request('POST', '/api/sessions', { title: `Bench ${i}` });
      ids.push((res.body as { id: string }).id);
    }
    await allReady(cp.api, ids);
    console.log(`${BOXES} boxes ready; ${ROUNDS} rounds of kill -9 → start`);
    const reconnect: number[] = [];
    const listen: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await cp.kill();
      const killedAt = Date.now();
      cp = await startControlPlane(dataDir);
      listen.push(Date.now() - killedAt);
      await allReady(cp.api, ids);
      for (const id of ids) reconnect.push((await readyAt(cp.api, id)) - killedAt);
    }
    line('control plane listening again after the kill, p50', pct(listen, 50));
    line(`daemon reconnected after the kill (${reconnect.length} boxes), p50`, pct(reconnect, 50));
    line('daemon reconnected after the kill, max', Math.max(...reconnect));
  } finally {
    await cp.kill();
    await removeAllBoxes(dataDir);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
