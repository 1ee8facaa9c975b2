import {
  MONTH_MS,
  SIZE_TABLE,
  STOPPED_CENTS_PER_GIB_MONTH,
  type SandboxSize,
} from './sandbox.limits';
import { switchPhase, type SandboxSpend } from './sandbox.state';

/**
 * cost_cents from the lifecycle alone: running time × the size's hourly price, plus stopped
 * time × disk_gib × 6¢ per GiB-month (30 days). `now` closes the phase still open, so every
 * cent is explained by the history (SandboxStarted / Stopped / Resumed / Destroyed times).
 * Rounded to a hundredth of a cent.
 */
export function costCents(size: SandboxSize, spend: SandboxSpend, now: string): number {
  const closed = spend.phase === null ? spend : switchPhase(spend, now, null);
  const { cents_per_hour, disk_gib } = SIZE_TABLE[size];
  const running = (closed.runningMs / 3_600_000) * cents_per_hour;
  const stopped = (closed.stoppedMs / MONTH_MS) * disk_gib * STOPPED_CENTS_PER_GIB_MONTH;
  return Math.round((running + stopped) * 100) / 100;
}
