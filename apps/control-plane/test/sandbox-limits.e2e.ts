import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type BoxDriver } from '../src/boxes';
import { BOX_DRIVER } from '../src/infrastructure/tokens';
import { startApp, tempDataDir, type RunningApp } from './harness';
import { call, makeKey, mcpClient } from './sandbox-kit';

/**
 * A sandbox's size held to with real boxes, scaled down so a test can reach the limits:
 * memory 1/16 (small: 128 MiB) and disk 4 MiB of small's 10 GiB. A command allocating past
 * the memory is OOM-killed (exit 137) and the sandbox goes on; a file write past the quota is
 * refused with limit_reached and nothing written; a command writing past it is told, and
 * file writes are refused until files are removed.
 */
const MiB = 1024 * 1024;
let api: RunningApp;
let client: Client;
let driver: BoxDriver;

beforeAll(async () => {
  api = await startApp(tempDataDir(), {
    SESSIONBOXER_SANDBOX_MEMORY_SCALE: String(1 / 16),
    SESSIONBOXER_SANDBOX_DISK_SCALE: String(4 / 10240),
  });
  driver = api.app.get<BoxDriver>(BOX_DRIVER);
  client = await mcpClient(api, (await makeKey(api)).key);
});
afterAll(async () => {
  for (const s of (await call(client, 'sandbox_list')).body?.sandboxes ?? []) {
    await call(client, 'sandbox_destroy', { sandbox: s.id });
  }
  await client.close();
  await api.close();
});

const exec = async (sandbox: string, command: string) =>
  (await call(client, 'sandbox_exec', { sandbox, command })).body;

it("holds a small sandbox's box to its cpu and (scaled) memory; a process past it is OOM-killed", async () => {
  const made = (await call(client, 'sandbox_create', { name: 'mem', size: 'small' })).body;
  expect(made).toMatchObject({ cpu: 1, memory_gib: 2, disk_gib: 10 }); // the table's figures
  expect(driver.info(made.id)?.limits).toMatchObject({ cpu: 1, memoryBytes: 128 * MiB });
  expect(driver.info(made.id)?.limits?.mechanism).toMatch(/^cgroup-v[12]$/);
  const hog = await exec('mem', `python3 -c "b = b'x' * (256 << 20); print(len(b))"`);
  expect(hog).toMatchObject({ exit_code: 137, stdout: '' });
  expect(hog.stderr).toMatch(
    /a process was killed for passing the sandbox's memory \(memory_gib 2\)\n$/,
  );
  expect(driver.info(made.id)?.limits?.oomKills).toBeGreaterThanOrEqual(1);
  const fits = await exec('mem', `python3 -c "b = b'x' * (32 << 20); print(len(b))"`);
  expect(fits).toMatchObject({ exit_code: 0, stdout: `${32 * MiB}\n`, stderr: '' });
});

it('refuses a file write past the disk quota, says so after a command past it, and allows writes again once files are removed', async () => {
  const made = (await call(client, 'sandbox_create', { name: 'disk' })).body;
  const home = path.join(api.dataDir, 'sandboxes', made.id, 'workspace', 'root');
  const write = (file: string, bytes: number) =>
    call(client, 'sandbox_write_file', {
      sandbox: 'disk',
      path: file,
      content_base64: Buffer.alloc(bytes, 7).toString('base64'),
    });
  expect((await write('/root/a.bin', 2 * MiB)).body).toEqual({
    path: '/root/a.bin',
    size_bytes: 2 * MiB,
  });
  // Replacing a file counts its new size, not both.
  expect((await write('/root/a.bin', 2 * MiB)).isError).toBe(false);
  const past = await write('/root/b.bin', 3 * MiB);
  expect(past.isError).toBe(true);
  expect(past.body.error).toBe('limit_reached');
  expect(past.body.message).toMatch(/would pass the sandbox's disk quota \(disk_gib 10: 4\.0 MB\)/);
  expect(existsSync(path.join(home, 'b.bin'))).toBe(false);
  // /tmp is memory (a tmpfs), not the workspace: not counted.
  expect((await write('/tmp/c.bin', 3 * MiB)).isError).toBe(false);

  const over = await exec('disk', 'head -c 3M /dev/zero > /workspace/big && echo done');
  expect(over.exit_code).toBe(0);
  expect(over.stdout).toBe('done\n');
  expect(over.stderr).toMatch(
    /past its disk quota \(disk_gib 10: 4\.0 MB\); file writes are refused/,
  );
  expect((await write('/root/small.txt', 10)).body.error).toBe('limit_reached');
  expect((await exec('disk', 'rm /workspace/big; echo ok')).stderr).toBe('');
  expect((await write('/root/small.txt', 10)).isError).toBe(false);
});
