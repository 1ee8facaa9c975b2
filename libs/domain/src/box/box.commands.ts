import type { Command } from '../kernel';

/** How the local driver isolates a box: a bubblewrap sandbox, or plain processes where the
 *  kernel does not allow user namespaces. */
export type BoxIsolation = 'bubblewrap' | 'process';

export const BOX_ISOLATIONS: readonly BoxIsolation[] = ['bubblewrap', 'process'];

/** Every box command names its session: a box belongs to exactly one, `box-<sessionId>`. */
interface BoxRef {
  sessionId: string;
}

/**
 * Records a box being (re)created for its session. A box that already exists is replaced (its
 * process is gone, e.g. after a control-plane restart); only a destroyed one is refused.
 */
export type ProvisionBox = Command<
  'ProvisionBox',
  BoxRef & { workspacePath: string; mcpJsonPath: string; isolation: BoxIsolation }
>;

/** The box's daemon connected to the control plane. */
export type MarkBoxReady = Command<'MarkBoxReady', BoxRef>;

/** The box's daemon lost its connection. */
export type MarkBoxDisconnected = Command<'MarkBoxDisconnected', BoxRef>;

export type FreezeBox = Command<'FreezeBox', BoxRef>;

export type ThawBox = Command<'ThawBox', BoxRef>;

export type DestroyBox = Command<'DestroyBox', BoxRef>;

export type FailBox = Command<'FailBox', BoxRef & { reason: string }>;

/** What a box's processes are when a (re)started control plane found them alive. */
export type AdoptedProcesses = 'running' | 'frozen';

/**
 * A control plane that started found the box's processes an earlier one left, and took them
 * back: running (its daemon reconnects) or frozen (it stays stopped) as they were.
 */
export type AdoptBox = Command<'AdoptBox', BoxRef & { processes: AdoptedProcesses; pid: number }>;

/** A control plane that started found the box's processes gone (a host reboot); files kept. */
export type LoseBoxProcesses = Command<'LoseBoxProcesses', BoxRef & { reason: string }>;

export type BoxCommand =
  | ProvisionBox
  | MarkBoxReady
  | MarkBoxDisconnected
  | FreezeBox
  | ThawBox
  | DestroyBox
  | FailBox
  | AdoptBox
  | LoseBoxProcesses;
