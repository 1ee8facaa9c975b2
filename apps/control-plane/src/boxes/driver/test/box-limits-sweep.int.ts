import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmdirSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { findV1Mount } from '../cgroup-v1-limits';
import { openKit } from './box-test-kit';

/**
 * cgroup v1 limit groups of another data dir: never killed, but one left empty for a minute is
 * removed when a driver opens; a fresh empty one (a box being started) and one with a process
 * stay. (On a host with cgroup v2 limits the freezer's sweep covers the same folders.)
 */
const memory = findV1Mount('memory');
const maybe = memory ? describe : describe.skip;

maybe("another data dir's v1 limit groups", () => {
  it('are removed only when empty for a minute', async () => {
    const other = path.join(
      memory!,
      'sessionboxer',
      `data-sweep${Math.floor(Math.random() * 1e9)}`,
    );
    const [old, fresh, busy] = ['old', 'fresh', 'busy'].map((n) => path.join(other, `box-${n}`));
    for (const dir of [old, fresh, busy]) mkdirSync(dir, { recursive: true });
    const anHourAgo = new Date(Date.now() - 3600_000);
    utimesSync(old, anHourAgo, anHourAgo);
    utimesSync(busy, anHourAgo, anHourAgo);
    const sleeper = spawn('/bin/sleep', ['1000'], { stdio: 'ignore' });
    try {
      writeFileSync(path.join(busy, 'cgroup.procs'), String(sleeper.pid));
      const kit = await openKit({ isolation: 'process' });
      expect(kit.driver.limits).toBe('cgroup-v1');
      await kit.close();
      expect([old, fresh, busy].map((d) => existsSync(d))).toEqual([false, true, true]);
      expect(sleeper.exitCode).toBeNull();
    } finally {
      sleeper.kill('SIGKILL');
      await new Promise((r) => sleeper.once('exit', r));
      for (const dir of [old, fresh, busy, other]) {
        for (let tries = 0; existsSync(dir) && tries < 200; tries++) {
          try {
            rmdirSync(dir);
          } catch {
            await new Promise((r) => setTimeout(r, 10));
          }
        }
      }
    }
  });
});
