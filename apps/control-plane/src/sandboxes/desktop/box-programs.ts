import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import type { BoxDriver } from '../../boxes';
import type { DesktopPrograms } from '../../../../box-agent/src/desktop/engine';
import { BoxRunner } from './box-runner';

/**
 * The session desktop engine's programs (xwd, `xdotool type`, the long-lived `xdotool -`)
 * run inside a sandbox's box, argv arrays only: the engine's queue, checks and encoders run
 * in the control plane, the X programs next to the display. The long-lived xdotool is one
 * driver exec; xwd and `xdotool type` go through the box's runner (box-runner.ts), so a
 * screenshot starts no process from the control plane.
 */
export function boxPrograms(
  driver: BoxDriver,
  sandboxId: string,
): { programs: DesktopPrograms; close(): void } {
  const runner = new BoxRunner(driver, sandboxId);
  return {
    programs: {
      run: (command, args, opts) => runner.run(command, args, opts),
      spawn: (command, args, env) =>
        driver.exec(sandboxId, [command, ...args], { env }) as ChildProcessWithoutNullStreams,
    },
    close: () => runner.close(),
  };
}
