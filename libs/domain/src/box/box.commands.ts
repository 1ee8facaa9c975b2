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

export type BoxCommand =
  ProvisionBox | MarkBoxReady | MarkBoxDisconnected | FreezeBox | ThawBox | DestroyBox | FailBox;
