import type { DomainEvent } from '../kernel';
import type { AdoptedProcesses, BoxIsolation } from './box.commands';

/** Like session events, each carries its session id and the command's `at`. */
export type BoxProvisioned = DomainEvent<
  'BoxProvisioned',
  {
    sessionId: string;
    workspacePath: string;
    mcpJsonPath: string;
    isolation: BoxIsolation;
    at: string;
  }
>;

export type BoxReady = DomainEvent<'BoxReady', { sessionId: string; at: string }>;

export type BoxDisconnected = DomainEvent<'BoxDisconnected', { sessionId: string; at: string }>;

export type BoxFrozen = DomainEvent<'BoxFrozen', { sessionId: string; at: string }>;

/** The box runs again; it counts as disconnected until its daemon reconnects (BoxReady). */
export type BoxThawed = DomainEvent<'BoxThawed', { sessionId: string; at: string }>;

export type BoxDestroyed = DomainEvent<'BoxDestroyed', { sessionId: string; at: string }>;

export type BoxFailed = DomainEvent<'BoxFailed', { sessionId: string; reason: string; at: string }>;

/** Its processes outlived a control plane and the next one took them back (same pid). */
export type BoxAdopted = DomainEvent<
  'BoxAdopted',
  { sessionId: string; processes: AdoptedProcesses; pid: number; at: string }
>;

/** Its processes were gone when a control plane started (a host reboot); its files are kept. */
export type BoxProcessesLost = DomainEvent<
  'BoxProcessesLost',
  { sessionId: string; reason: string; at: string }
>;

export type BoxEvent =
  | BoxProvisioned
  | BoxReady
  | BoxDisconnected
  | BoxFrozen
  | BoxThawed
  | BoxDestroyed
  | BoxFailed
  | BoxAdopted
  | BoxProcessesLost;

export const BOX_EVENT_TYPES: readonly BoxEvent['type'][] = [
  'BoxProvisioned',
  'BoxReady',
  'BoxDisconnected',
  'BoxFrozen',
  'BoxThawed',
  'BoxDestroyed',
  'BoxFailed',
  'BoxAdopted',
  'BoxProcessesLost',
];

/** Narrows an event read from a store to a box event. */
export function isBoxEvent(event: { type: string; data: unknown }): event is BoxEvent {
  return (BOX_EVENT_TYPES as readonly string[]).includes(event.type);
}
