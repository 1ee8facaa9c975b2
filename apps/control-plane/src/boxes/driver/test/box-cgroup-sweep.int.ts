import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmdirSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { findCgroup2Mount } from '../host';
import { openKit } from './box-test-kit';

/**
 * Another data dir's box groups are never killed, but one left empty for a minute (its box
 * ended while no control plane of its data dir ran, or the data dir is gone) is removed when a
 * driver opens; a fresh empty one (a box being started) and one with a process stay.
 */
describe("another data dir's box groups", () => {
  it('are removed only when empty for a minute', async () => {
    const base = path.join(findCgroup2Mount() as string, 'sessionboxer');
    const other = path.join(base, `data-sweep${Math.floor(Math.random() * 1e9)}`);
    const old = path.join(other, 'box-old');
    const fresh = path.join(other, 'box-fresh');
    const busy = path.join(other, 'box-busy');
    for (const dir of [old, fresh, busy]) mkdirSync(dir, { recursive: true });
    const anHourAgo = new Date(Date.now() - 3600_000);
    utimesSync(old, anHourAgo, anHourAgo);
    utimesSync(busy, anHourAgo, anHourAgo);
    const sleeper = spawn('/bin/sleep', ['1000'], { stdio: 'ignore' });
    try {
      writeFileSync(path.join(busy, 'cgroup.procs'), String(sleeper.pid));
      const kit = await openKit({ isolation: 'process' });
      await kit.close();
      expect([old, fresh, busy].map((d) => existsSync(d))).toEqual([false, true, true]);
      expect(sleeper.exitCode).toBeNull();
    } finally {
      sleeper.kill('SIGKILL');
      await new Promise((r) => sleeper.once('exit', r));
      for (const dir of [old, fresh, busy, other]) {
        // The kernel may still count the killed sleeper for a moment (EBUSY).
        for (let tries = 0; existsSync(dir); tries++) {
          try {
            rmdirSync(dir);
          } catch {
            if (tries > 200) break; // left for the next driver's sweep
            await new Promise((r) => setTimeout(r, 10));
          }
        }
      }
    }
  });
});
