import type { Command } from '../kernel';
import type { SandboxDesktopCommand } from './sandbox.desktop';
import type { StoppedReason } from './sandbox.events';

/**
 * The parameters as they arrive (snake case, the spec's names), plus what the control plane
 * decides: the id, the org (from the API key) and the secret names it checked against the
 * environment. The decider applies the defaults and validates the rest.
 */
export type CreateSandbox = Command<
  'CreateSandbox',
  {
    sandboxId: string;
    orgId: string;
    forkedFrom?: string | null;
    args: Record<string, unknown>;
  }
>;
export type RecordSandboxStarted = Command<'RecordSandboxStarted', { sandboxId: string }>;
export type FailSandbox = Command<'FailSandbox', { sandboxId: string; reason: string }>;
export type UpdateSandbox = Command<
  'UpdateSandbox',
  { sandboxId: string; args: Record<string, unknown> }
>;
export type StopSandbox = Command<'StopSandbox', { sandboxId: string; reason: StoppedReason }>;
export type ResumeSandbox = Command<'ResumeSandbox', { sandboxId: string }>;
export type DestroySandbox = Command<'DestroySandbox', { sandboxId: string }>;

export type SandboxCommand =
  | CreateSandbox
  | RecordSandboxStarted
  | FailSandbox
  | UpdateSandbox
  | StopSandbox
  | ResumeSandbox
  | DestroySandbox
  | SandboxDesktopCommand;
