import type { Command } from '../kernel';
import type { Settings } from './settings.state';

/**
 * What to change. A section left out is kept; the object sections (`defaults`, `sessionboxer`,
 * `github`, `desktop`, `autoQa`, `notifications`) merge field by field; `gitIdentity`, `mcpRegistry` and `environments` are replaced
 * whole. `null` clears a nullable field (a token). Never echo `publicSettings` back as a patch:
 * its removed secrets are nulls and would clear the real ones.
 */
export interface SettingsPatch {
  defaults?: Partial<Settings['defaults']>;
  sessionboxer?: Partial<Settings['sessionboxer']>;
  gitIdentity?: Settings['gitIdentity'];
  github?: Partial<Settings['github']>;
  mcpRegistry?: Settings['mcpRegistry'];
  environments?: Settings['environments'];
  desktop?: Partial<Settings['desktop']>;
  autoQa?: Partial<Settings['autoQa']>;
  notifications?: Partial<Settings['notifications']>;
}

export type UpdateSettings = Command<'UpdateSettings', { patch: SettingsPatch }>;

/**
 * Gives sessions' agents one of Sessionboxer's outside servers through the MCP registry (an
 * entry `{ name: relay, relay }`), or takes it back; the registry's other entries, and their
 * secrets, stay as they are.
 */
export type GiveRelayedMcpServer = Command<
  'GiveRelayedMcpServer',
  { relay: unknown; given: unknown }
>;

/** Adds one stdio server to the MCP registry, or replaces the one of that name. */
export type PutMcpServer = Command<'PutMcpServer', { entry: unknown }>;
/** Takes one stdio server out of the MCP registry. */
export type RemoveMcpServer = Command<'RemoveMcpServer', { name: unknown }>;

export type SettingsCommand =
  UpdateSettings | GiveRelayedMcpServer | PutMcpServer | RemoveMcpServer;
