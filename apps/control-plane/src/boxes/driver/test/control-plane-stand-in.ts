/**
 * A stand-in control plane for the die-with-parent test: opens a driver, starts one box whose
 * main process and its child carry `argv[4]` in their command lines, prints "ready", then
 * waits to be killed.
 * Run with `node -r @swc-node/register control-plane-stand-in.ts <dataDir> <isolation> <marker>`.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { LocalBoxDriver } from '../local-box-driver';

async function main(): Promise<void> {
  const [dataDir, isolation, marker] = process.argv.slice(2);
  const quiet = { log: () => undefined, warn: () => undefined };
  const driver = await LocalBoxDriver.open({
    dataDir,
    isolation: isolation as 'bubblewrap' | 'process',
    logger: quiet,
  });
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
  // Ready once the command runs: a parent that dies while setpriv/bwrap are still setting up
  // (the first milliseconds) races their PR_SET_PDEATHSIG.
  while (!existsSync(path.join(workspaceDir, 'started'))) await sleep(5);
  process.stdout.write('ready\n');
  setInterval(() => undefined, 1000);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
