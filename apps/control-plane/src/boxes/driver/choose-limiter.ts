import * as path from 'node:path';
import { CgroupV1Limits } from './cgroup-v1-limits';
import { CgroupV2Limits } from './cgroup-v2-limits';
import { dataDirTag } from './controls';
import { findCgroup2Mount } from './host';
import { type LimitMechanism, NoLimits, type ResourceLimiter } from './resource-limits';

/**
 * cgroup v2 limits when the unified tree has the memory and cpu controllers, else cgroup v1
 * (a hybrid host), else none, logged loudly ('auto'); or exactly the one asked (a test, or an
 * operator who wants a start to fail rather than run boxes without limits).
 */
export async function chooseLimiter(
  choice: 'auto' | LimitMechanism,
  cgroupRoot: string | undefined,
  dataDir: string,
  logger: { warn(message: string): void },
): Promise<ResourceLimiter> {
  if (choice === 'none') return new NoLimits();
  const tag = dataDirTag(dataDir);
  const why: string[] = [];
  if (choice !== 'cgroup-v1') {
    const mount = findCgroup2Mount();
    const root = path.join(cgroupRoot ?? (mount ? path.join(mount, 'sessionboxer') : ''), tag);
    const v2 = mount ? await CgroupV2Limits.probe(mount, root) : null;
    if (v2) return v2;
    why.push(mount ? `no memory and cpu controllers usable under ${root}` : 'no cgroup2 mount');
    if (choice === 'cgroup-v2') throw new Error(`cgroup v2 limits unusable: ${why.join('; ')}`);
  }
  const v1 = await CgroupV1Limits.probe(tag);
  if (v1) {
    await v1.removeEmptyOfOthers().catch(() => undefined);
    return v1;
  }
  why.push('no writable cgroup v1 memory and cpu hierarchies');
  if (choice === 'cgroup-v1') throw new Error(`cgroup v1 limits unusable: ${why.join('; ')}`);
  logger.warn(`boxes: ${why.join('; ')}: boxes' cpu and memory are NOT limited`);
  return new NoLimits();
}
