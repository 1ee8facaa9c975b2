import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import type { BoxDriver } from '../../boxes';
import type { DesktopPrograms } from '../../../../box-agent/src/desktop/engine';
import { CommandError } from '../../../../box-agent/src/desktop/run';

/**
 * The session desktop engine's programs (xwd, `xdotool type`, the long-lived `xdotool -`)
 * run inside a sandbox's box through the driver's exec, argv arrays only: the engine's
 * queue, checks and encoders run in the control plane, the X programs next to the display.
 */
export function boxPrograms(driver: BoxDriver, sandboxId: string): DesktopPrograms {
  return {
    run: (command, args, opts) =>
      new Promise<Buffer>((resolve, reject) => {
        const child = driver.exec(sandboxId, [command, ...args], {
          env: { DISPLAY: opts.display },
        });
        const max = opts.maxBuffer ?? 1 << 20;
        const out: Buffer[] = [];
        let size = 0;
        let stderr = '';
        let why: string | null = null;
        const stop = (reason: string) => {
          why ??= reason;
          child.kill('SIGKILL');
        };
        const timer = setTimeout(
          () => stop(`${command} did not finish within ${opts.timeoutMs} ms`),
          opts.timeoutMs,
        );
        child.stdin?.end();
        child.stdout?.on('data', (d: Buffer) => {
          size += d.length;
          if (size > max) return stop(`${command} wrote more than expected`);
          out.push(d);
        });
        child.stderr?.setEncoding('utf8').on('data', (t: string) => {
          stderr = (stderr + t).slice(-2000);
        });
        child.once('error', (e) => stop(`${command} failed: ${e.message}`));
        child.once('close', (code) => {
          clearTimeout(timer);
          if (why === null && code === 0) return resolve(Buffer.concat(out, size));
          const last = stderr.trim().split('\n').pop() ?? '';
          reject(new CommandError(why ?? `${command} failed: ${last || `exit ${code}`}`));
        });
      }),
    spawn: (command, args, env) =>
      driver.exec(sandboxId, [command, ...args], { env }) as ChildProcessWithoutNullStreams,
  };
}
