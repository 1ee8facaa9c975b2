import type { BoxIsolation } from './box.commands';

/**
 * `provisioning` until the daemon first connects; `disconnected` when it lost the connection or
 * the box was just thawed; `lost` when its processes were gone at a control plane's start (a
 * host reboot; resume starts it again); `destroyed` is final.
 */
export type BoxStatus =
  'provisioning' | 'ready' | 'disconnected' | 'frozen' | 'destroyed' | 'failed' | 'lost';

export const BOX_STATUSES: readonly BoxStatus[] = [
  'provisioning',
  'ready',
  'disconnected',
  'frozen',
  'destroyed',
  'failed',
  'lost',
];

export type BoxState =
  | { status: 'absent' }
  | {
      status: BoxStatus;
      sessionId: string;
      workspacePath: string;
      mcpJsonPath: string;
      isolation: BoxIsolation;
      /** Why it failed, while it is `failed`. */
      failure: string | null;
    };

export type ExistingBox = Exclude<BoxState, { status: 'absent' }>;

export const initialBoxState: BoxState = { status: 'absent' };
