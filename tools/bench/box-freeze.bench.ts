/**
 * What freezing the box costs a turn's snapshot (run alone, after a build: `node -r
 * @swc-node/register tools/bench/box-freeze.bench.ts`): a real box (its daemon ready), then
 * 50 freeze + thaw pairs through the driver, as TurnSnapshots.take does around the capture.
 * Prints p50 and p95 of the pair and the load average. Needs bubblewrap and dist/.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sessionDetailsQueries, type SqliteReadModelStore } from '@sessionboxer/projections';
import { createApp, listen } from '../../apps/control-plane/src/app.factory';
import type { BoxDriver } from '../../apps/control-plane/src/boxes/driver';
import { loadConfig } from '../../apps/control-plane/src/config';
import { BOX_DRIVER, READ_MODELS } from '../../apps/control-plane/src/infrastructure/tokens';
import { TEST_PASSWORD, signIn } from '../../apps/control-plane/test/harness';

const PAIRS = 50;
const now = (): number => Number(process.hrtime.bigint()) / 1e6;
const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-freeze-'));
  const config = loadConfig({
    SESSIONBOXER_PORT: '0',
    SESSIONBOXER_DATA_DIR: dataDir,
    SESSIONBOXER_ADMIN_PASSWORD: TEST_PASSWORD,
  });
  const app = await createApp(config, { logger: ['error'] });
  await listen(app, config);
  try {
    const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    const auth = { authorization: `Bearer ${await signIn(base, 'admin', TEST_PASSWORD)}` };
    const res = await fetch(`${base}/api/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify({ title: 'Freeze bench', provider: 'scripted' }),
    });
    const id = ((await res.json()) as { id: string }).id;
    const readModels = app.get<SqliteReadModelStore>(READ_MODELS);
    const t0 = now();
    while (sessionDetailsQueries(readModels).get(id)?.box?.status !== 'ready') {
      if (now() - t0 > 60_000) throw new Error(`box ${id} did not get ready`);
      await new Promise((r) => setTimeout(r, 5));
    }
    const driver = app.get<BoxDriver>(BOX_DRIVER);
    const times: number[] = [];
    for (let i = 0; i < PAIRS; i++) {
      const t = now();
      await driver.freeze(id);
      await driver.thaw(id);
      times.push(now() - t);
    }
    const load = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    console.log(`load average: ${load}`);
    console.log(
      `freeze + thaw of a box (${driver.info(id)?.status}, ${PAIRS} pairs): p50 ${pct(times, 50).toFixed(2)} ms, p95 ${pct(times, 95).toFixed(2)} ms`,
    );
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

void main();
