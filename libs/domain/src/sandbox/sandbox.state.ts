import { isoMs } from './iso-time';
import type { SandboxDesktopState } from './sandbox.desktop';
import type { SandboxSettings, StoppedReason } from './sandbox.events';

export type SandboxStatus = 'none' | 'creating' | 'running' | 'stopped' | 'deleted' | 'failed';

/** Running and stopped time so far, and since when the current phase runs (null: none). */
export interface SandboxSpend {
  runningMs: number;
  stoppedMs: number;
  phase: 'running' | 'stopped' | null;
  since: string | null;
}

export interface SandboxState {
  status: SandboxStatus;
  settings: SandboxSettings | null;
  stoppedReason: StoppedReason | null;
  failure: string | null;
  createdAt: string | null;
  updatedAt: string | null;
  spend: SandboxSpend;
  /** Its desktop (null: never started; a read model written before desktops has none). */
  desktop?: SandboxDesktopState | null;
}

export const initialSandboxState: SandboxState = {
  status: 'none',
  settings: null,
  stoppedReason: null,
  failure: null,
  createdAt: null,
  updatedAt: null,
  spend: { runningMs: 0, stoppedMs: 0, phase: null, since: null },
  desktop: null,
};

/** Closes the current phase at `at` and opens `next` (null: billing stops). */
export function switchPhase(
  spend: SandboxSpend,
  at: string,
  next: SandboxSpend['phase'],
): SandboxSpend {
  const elapsed = spend.since === null ? 0 : Math.max(0, isoMs(at) - isoMs(spend.since));
  return {
    runningMs: spend.runningMs + (spend.phase === 'running' ? elapsed : 0),
    stoppedMs: spend.stoppedMs + (spend.phase === 'stopped' ? elapsed : 0),
    phase: next,
    since: next === null ? null : at,
  };
}
