import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import * as path from 'node:path';
import type { BoxControl, ControlMechanism } from './box-control';
import { CgroupControl } from './cgroup-control';
import { findCgroup2Mount } from './host';
import { SignalControl } from './signal-control';

/**
 * The cgroup v2 freezer when it works here, else signals ('auto'); or exactly the one asked.
 * Each data dir has a folder of its own under the cgroup root, so a control plane sweeps
 * only what dead control planes of its own data dir left, never another instance's boxes.
 */
export async function chooseControl(
  choice: 'auto' | ControlMechanism,
  cgroupRoot: string | undefined,
  dataDir: string,
  logger: { warn(message: string): void },
): Promise<BoxControl> {
  if (choice === 'signals') return new SignalControl();
  const mount = findCgroup2Mount();
  const base = cgroupRoot ?? (mount ? path.join(mount, 'sessionboxer') : null);
  const root = base ? path.join(base, dataDirTag(dataDir)) : null;
  const cgroup = root ? await CgroupControl.probe(root) : null;
  if (cgroup) {
    const swept = await cgroup.sweepStale().catch(() => 0);
    if (swept > 0) logger.warn(`boxes: killed what ${swept} dead control plane(s) left running`);
    return cgroup;
  }
  const why = root ? `cannot freeze a cgroup under ${root}` : 'no cgroup2 mount';
  if (choice === 'cgroup-v2') throw new Error(`cgroup v2 freezer unusable: ${why}`);
  logger.warn(`boxes: ${why}; freezing with SIGSTOP/SIGCONT instead`);
  return new SignalControl();
}

/** A short name for a data dir, the same for every path that leads to it. */
export function dataDirTag(dataDir: string): string {
  const real = realpathSync(dataDir);
  return `data-${createHash('sha256').update(real).digest('hex').slice(0, 16)}`;
}
