import type { DomainEvent } from '../kernel';
import { SANDBOX_DESKTOP_EVENT_TYPES, type SandboxDesktopEvent } from './sandbox.desktop';
import type { SandboxSize } from './sandbox.limits';

/** Why a sandbox stopped, as the spec names the reasons. */
export type StoppedReason = 'requested' | 'idle' | 'agents_finished' | 'limit_reached';
export const STOPPED_REASONS: readonly StoppedReason[] = [
  'requested',
  'idle',
  'agents_finished',
  'limit_reached',
];

/** What a sandbox is made with; secrets are names only, never values. */
export interface SandboxSettings {
  sandboxId: string;
  orgId: string;
  name: string;
  size: SandboxSize;
  secrets: string[];
  environment: string;
  idleTimeoutSeconds: number;
  stopWhenAgentsFinish: boolean;
  metadata: Record<string, string>;
  idempotencyKey: string | null;
  /** The sandbox whose files this one started from. */
  forkedFrom: string | null;
}

export type SandboxCreated = DomainEvent<'SandboxCreated', SandboxSettings & { at: string }>;
/** Its box runs: billing at the size's hourly price starts here. */
export type SandboxStarted = DomainEvent<'SandboxStarted', { sandboxId: string; at: string }>;
export type SandboxFailed = DomainEvent<
  'SandboxFailed',
  { sandboxId: string; reason: string; at: string }
>;
/** The three settings as they are after the change, whole. */
export type SandboxUpdated = DomainEvent<
  'SandboxUpdated',
  {
    sandboxId: string;
    idleTimeoutSeconds: number;
    stopWhenAgentsFinish: boolean;
    metadata: Record<string, string>;
    at: string;
  }
>;
export type SandboxStopped = DomainEvent<
  'SandboxStopped',
  { sandboxId: string; reason: StoppedReason; at: string }
>;
export type SandboxResumed = DomainEvent<'SandboxResumed', { sandboxId: string; at: string }>;
export type SandboxDestroyed = DomainEvent<'SandboxDestroyed', { sandboxId: string; at: string }>;

export type SandboxEvent =
  | SandboxCreated
  | SandboxStarted
  | SandboxFailed
  | SandboxUpdated
  | SandboxStopped
  | SandboxResumed
  | SandboxDestroyed
  | SandboxDesktopEvent;

export const SANDBOX_EVENT_TYPES: readonly SandboxEvent['type'][] = [
  'SandboxCreated',
  'SandboxStarted',
  'SandboxFailed',
  'SandboxUpdated',
  'SandboxStopped',
  'SandboxResumed',
  'SandboxDestroyed',
  ...SANDBOX_DESKTOP_EVENT_TYPES,
];

export function isSandboxEvent(event: { type: string; data: unknown }): event is SandboxEvent {
  return (SANDBOX_EVENT_TYPES as readonly string[]).includes(event.type);
}
