/**
 * A stand-in control plane for the outlive-the-control-plane test. Run with
 * `node -r @swc-node/register control-plane-stand-in.ts <dataDir> <isolation> <marker> <mode>`.
 * - `create`: starts one box whose main process and its child carry `<marker>` in their
 *   command lines, prints "ready <sessionId>", then waits to be killed.
 * - `adopt`: opens a driver on the data dir, runs a command in every box it found running and
 *   freezes it, prints "ready <json>" (what it found, the command's output, the statuses), then
 *   waits to be killed.
 * - `report`: opens a driver, prints "ready <json>" of what it found, and exits (leaving the
 *   boxes as they are, as a control plane that stops does).
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { LocalBoxDriver } from '../local-box-driver';
import { sh } from './box-test-kit';

async function create(driver: LocalBoxDriver, dataDir: string, marker: string): Promise<void> {
  const sessionId = randomUUID();
  const root = path.join(dataDir, sessionId);
  const workspaceDir = path.join(root, 'workspace');
  await driver.create({
    sessionId,
    workspaceDir,
    gatewaySocketDir: path.join(root, 'run'),
    command: [
      '/bin/sh',
      '-c',
      `touch started; /bin/sh -c 'sleep 1000' ${marker}-child & wait`,
      marker,
    ],
    env: {},
  });
  // Ready once the command runs, so the test kills a control plane whose box is up.
  while (!existsSync(path.join(workspaceDir, 'started'))) await sleep(5);
  process.stdout.write(`ready ${sessionId}\n`);
}

async function adopt(driver: LocalBoxDriver): Promise<void> {
  const found = driver.found();
  const exec: Record<string, string> = {};
  for (const f of found.filter((b) => b.processes === 'running')) {
    exec[f.sessionId] = (await sh(driver, f.sessionId, 'cat started && echo in')).stdout;
    await driver.freeze(f.sessionId);
  }
  const status = Object.fromEntries(found.map((f) => [f.sessionId, driver.info(f.sessionId)]));
  process.stdout.write(`ready ${JSON.stringify({ found, exec, status })}\n`);
}

async function main(): Promise<void> {
  const [dataDir, isolation, marker, mode] = process.argv.slice(2);
  const quiet = { log: () => undefined, warn: () => undefined };
  const driver = await LocalBoxDriver.open({
    dataDir,
    isolation: isolation as 'bubblewrap' | 'process',
    logger: quiet,
  });
  if (mode === 'create') await create(driver, dataDir, marker);
  else if (mode === 'adopt') await adopt(driver);
  else {
    process.stdout.write(`ready ${JSON.stringify({ found: driver.found() })}\n`);
    process.exit(0);
  }
  setInterval(() => undefined, 1000);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
