/**
 * Box driver benchmark: `node -r @swc-node/register tools/bench/box-driver.bench.ts`.
 * For BOXES boxes, one after another, on the driver this host picks ('auto'):
 *   - create resolved            (spawned, namespaces and mounts ready)
 *   - create → sh wrote a file   (the command inside runs: the box's own start cost)
 *   - create → node wrote a file (a Node daemon is up: what a session start waits for)
 *   - exec /bin/true round trip, freeze + thaw, destroy
 * BENCH_ISOLATION=process|bubblewrap and BENCH_FREEZER=signals|cgroup-v2 force a driver.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { BoxSpec } from '../../apps/control-plane/src/boxes/driver/box-driver.port';
import { LocalBoxDriver } from '../../apps/control-plane/src/boxes/driver/local-box-driver';

const BOXES = Number(process.env.BENCH_BOXES ?? 30);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

function report(label: string, samples: number[]): void {
  const s = [...samples].sort((a, b) => a - b);
  const f = (n: number) => `${n.toFixed(1)} ms`.padStart(9);
  console.log(`${label.padEnd(34)} p50 ${f(percentile(s, 0.5))}  p99 ${f(percentile(s, 0.99))}`);
}

async function until(file: string): Promise<void> {
  while (!existsSync(file)) await new Promise((r) => setImmediate(r));
}

function spec(dataDir: string, command: string[]): BoxSpec {
  const sessionId = randomUUID();
  const root = path.join(dataDir, sessionId);
  const workspaceDir = path.join(root, 'workspace');
  return { sessionId, workspaceDir, gatewaySocketDir: path.join(root, 'run'), command, env: {} };
}

async function timeStart(driver: LocalBoxDriver, dataDir: string, script: string[]) {
  const s = spec(dataDir, script);
  const t0 = performance.now();
  await driver.create(s);
  const created = performance.now() - t0;
  await until(path.join(s.workspaceDir, 'ready'));
  return { id: s.sessionId, created, ready: performance.now() - t0 };
}

async function execTrue(driver: LocalBoxDriver, id: string): Promise<number> {
  const t0 = performance.now();
  const child = driver.exec(id, ['/bin/true']);
  await new Promise((r) => child.once('close', r));
  return performance.now() - t0;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sbx-bench-'));
  const driver = await LocalBoxDriver.open({
    dataDir,
    isolation: (process.env.BENCH_ISOLATION as 'process' | undefined) ?? 'auto',
    freezer: (process.env.BENCH_FREEZER as 'signals' | undefined) ?? 'auto',
    logger: { log: (m) => console.log(m), warn: () => undefined },
  });
  const ws = (f: string) => (driver.isolation === 'bubblewrap' ? `/workspace/${f}` : f);
  const shBox = ['/bin/sh', '-c', `echo > ${ws('ready')}; exec sleep 1000`];
  const nodeBox = [
    '/usr/bin/node',
    '-e',
    `require('fs').writeFileSync('${ws('ready')}', '');
    require('http').createServer((q, s) => s.end('ok')).listen(7000, '127.0.0.1');`,
  ];
  const m = { created: [] as number[], sh: [] as number[], node: [] as number[] };
  const x = { exec: [] as number[], freeze: [] as number[], destroy: [] as number[] };
  try {
    for (let i = 0; i < BOXES; i++) {
      const a = await timeStart(driver, dataDir, shBox);
      const b = await timeStart(driver, dataDir, nodeBox);
      m.created.push(a.created, b.created);
      m.sh.push(a.ready);
      m.node.push(b.ready);
      x.exec.push(await execTrue(driver, a.id));
      let t0 = performance.now();
      await driver.freeze(b.id);
      await driver.thaw(b.id);
      x.freeze.push(performance.now() - t0);
      for (const id of [a.id, b.id]) {
        t0 = performance.now();
        await driver.destroy(id, { removeWorkspace: true });
        x.destroy.push(performance.now() - t0);
      }
    }
    console.log(`${BOXES} boxes of each kind, ${driver.isolation}, ${driver.freezer} freezer`);
    report('create resolved', m.created);
    report('create → sh wrote a file', m.sh);
    report('create → node wrote a file', m.node);
    report('exec /bin/true round trip', x.exec);
    report('freeze + thaw', x.freeze);
    report('destroy (kill all + remove)', x.destroy);
  } finally {
    await driver.shutdownAll();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void main();
