import { SIZE_TABLE, type SandboxSize } from '@sessionboxer/domain/sandbox';
import type { BoxLimitsConfig } from '../../box-limits-config';
import type { BoxLimits } from '../driver';

const GiB = 1024 ** 3;
/** The least memory a box is given whatever the scale (its holder process must start). */
const MIN_MEMORY = 64 * 1024 * 1024;

/**
 * What a sandbox's box is held to: its size's cpu and memory_gib (cgroup limits, see the box
 * driver) and disk_gib (the workspace quota, workspace-quota.ts), scaled by the operator's
 * factors (1 unless a test asks for a small quota).
 */
export function sizeLimits(
  size: SandboxSize,
  config: Pick<BoxLimitsConfig, 'sandboxMemoryScale' | 'sandboxDiskScale'>,
): { box: BoxLimits; diskBytes: number } {
  const row = SIZE_TABLE[size] ?? SIZE_TABLE.small;
  const memoryBytes = Math.max(
    MIN_MEMORY,
    Math.round(row.memory_gib * GiB * config.sandboxMemoryScale),
  );
  return {
    box: { cpu: row.cpu, memoryBytes },
    diskBytes: Math.round(row.disk_gib * GiB * config.sandboxDiskScale),
  };
}
