import { boxLimitsConfig } from './box-limits-config';

describe('box limits configuration', () => {
  it('defaults to the size table as it is and no limits on sessions’ boxes', () => {
    expect(boxLimitsConfig({})).toEqual({
      sandboxMemoryScale: 1,
      sandboxDiskScale: 1,
      sessionBoxes: null,
    });
  });

  it('reads the scales and the sessions’ limits', () => {
    const c = boxLimitsConfig({
      SESSIONBOXER_SANDBOX_MEMORY_SCALE: '0.5',
      SESSIONBOXER_SANDBOX_DISK_SCALE: '0.001',
      SESSIONBOXER_SESSION_BOX_CPU: '1.5',
      SESSIONBOXER_SESSION_BOX_MEMORY_GIB: '3',
    });
    expect(c).toEqual({
      sandboxMemoryScale: 0.5,
      sandboxDiskScale: 0.001,
      sessionBoxes: { cpu: 1.5, memoryBytes: 3 * 1024 ** 3 },
    });
  });

  it.each([
    [
      { SESSIONBOXER_SANDBOX_DISK_SCALE: '0' },
      /SESSIONBOXER_SANDBOX_DISK_SCALE must be a number above 0/,
    ],
    [
      { SESSIONBOXER_SANDBOX_MEMORY_SCALE: '2' },
      /SESSIONBOXER_SANDBOX_MEMORY_SCALE must be .* at most 1/,
    ],
    [{ SESSIONBOXER_SESSION_BOX_CPU: '1' }, /must be set together/],
    [
      { SESSIONBOXER_SESSION_BOX_CPU: 'lots', SESSIONBOXER_SESSION_BOX_MEMORY_GIB: '1' },
      /SESSIONBOXER_SESSION_BOX_CPU must be a number from 0.01 to 1024, got "lots"/,
    ],
  ])('refuses %j naming the variable', (env, message) => {
    expect(() => boxLimitsConfig(env)).toThrow(message);
  });
});
