/** Boxes' cpu, memory and disk: the operator's part of the configuration (docs/SANDBOXES.md). */
export interface BoxLimitsConfig {
  /**
   * SESSIONBOXER_SANDBOX_MEMORY_SCALE and SESSIONBOXER_SANDBOX_DISK_SCALE (default 1, at most 1):
   * the share of its size's memory_gib and disk_gib a sandbox's box is held to. Answers still
   * show the size table's figures; only a test (a quota of a few MB) or an operator who
   * oversells the host sets them.
   */
  sandboxMemoryScale: number;
  sandboxDiskScale: number;
  /**
   * SESSIONBOXER_SESSION_BOX_CPU and SESSIONBOXER_SESSION_BOX_MEMORY_GIB (both or neither): the
   * limits of every session's box; null (unset): sessions' boxes are not limited.
   */
  sessionBoxes: { cpu: number; memoryBytes: number } | null;
}

const GiB = 1024 ** 3;

function fraction(env: NodeJS.ProcessEnv, name: string): number {
  const raw = env[name]?.trim();
  const value = raw ? Number(raw) : 1;
  if (!Number.isFinite(value) || value <= 0 || value > 1) {
    throw new Error(`${name} must be a number above 0 and at most 1, got ${JSON.stringify(raw)}`);
  }
  return value;
}

function positive(env: NodeJS.ProcessEnv, name: string, min: number, max: number): number | null {
  const raw = env[name]?.trim();
  if (!raw) return null;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new Error(`${name} must be a number from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

/** Throws an Error naming the variable and what it must be. */
export function boxLimitsConfig(env: NodeJS.ProcessEnv): BoxLimitsConfig {
  const cpu = positive(env, 'SESSIONBOXER_SESSION_BOX_CPU', 0.01, 1024);
  const memoryGib = positive(env, 'SESSIONBOXER_SESSION_BOX_MEMORY_GIB', 0.01, 1024 * 1024);
  if ((cpu === null) !== (memoryGib === null)) {
    throw new Error(
      'SESSIONBOXER_SESSION_BOX_CPU and SESSIONBOXER_SESSION_BOX_MEMORY_GIB must be set together',
    );
  }
  return {
    sandboxMemoryScale: fraction(env, 'SESSIONBOXER_SANDBOX_MEMORY_SCALE'),
    sandboxDiskScale: fraction(env, 'SESSIONBOXER_SANDBOX_DISK_SCALE'),
    sessionBoxes:
      cpu !== null && memoryGib !== null ? { cpu, memoryBytes: Math.round(memoryGib * GiB) } : null,
  };
}
