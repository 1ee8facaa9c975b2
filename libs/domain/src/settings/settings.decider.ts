import { assertNever, type Decider } from '../kernel';
import { bool, oneOf } from '../kernel/validation';
import type { GiveRelayedMcpServer, SettingsCommand, UpdateSettings } from './settings.commands';
import type { SettingsEvent } from './settings.events';
import {
  initialSettingsState,
  isRelayedEntry,
  RELAYED_MCP_SERVERS,
  type SettingsState,
} from './settings.state';
import { putMcpServer, removeMcpServer } from './settings.mcp-servers';
import { mergePatch, validSettings } from './settings.validation';

/** The one settings stream of a control plane: `settings-global`. */
export const SETTINGS_STREAM = 'settings-global';

export function settingsStream(): string {
  return SETTINGS_STREAM;
}

/** Equal as JSON values: key order does not count (a stored event may list env keys anew). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  return ka.every((k) => Object.hasOwn(rb, k) && sameJson(ra[k], rb[k]));
}

/** A patch that changes nothing records nothing. */
function update(command: UpdateSettings, state: SettingsState): SettingsEvent[] {
  return changed(validSettings(mergePatch(state.settings, command.data.patch)), state, command);
}

function changed(
  settings: SettingsState['settings'],
  state: SettingsState,
  command: SettingsCommand,
): SettingsEvent[] {
  if (sameJson(settings, state.settings)) return [];
  return [{ type: 'SettingsUpdated', data: { settings, at: command.metadata.at } }];
}

/** Adds `{ name: relay, relay }` to the registry, or removes every entry of that relay. */
function give(command: GiveRelayedMcpServer, state: SettingsState): SettingsEvent[] {
  const relay = oneOf(command.data.relay, 'relay', RELAYED_MCP_SERVERS);
  const given = bool(command.data.given, 'given');
  const registry = state.settings.mcpRegistry;
  const has = registry.some((e) => isRelayedEntry(e) && e.relay === relay);
  if (has === given) return [];
  const mcpRegistry = given
    ? [...registry, { name: relay, relay }]
    : registry.filter((e) => !(isRelayedEntry(e) && e.relay === relay));
  return changed(validSettings({ ...state.settings, mcpRegistry }), state, command);
}

function decide(command: SettingsCommand, state: SettingsState): SettingsEvent[] {
  switch (command.type) {
    case 'UpdateSettings':
      return update(command, state);
    case 'GiveRelayedMcpServer':
      return give(command, state);
    case 'PutMcpServer':
      return changed(putMcpServer(command, state.settings), state, command);
    case 'RemoveMcpServer':
      return changed(removeMcpServer(command, state.settings), state, command);
    default:
      return assertNever(command);
  }
}

function evolve(_state: SettingsState, event: SettingsEvent): SettingsState {
  switch (event.type) {
    case 'SettingsUpdated':
      return { settings: event.data.settings };
    default:
      return assertNever(event.type);
  }
}

export const settingsDecider: Decider<SettingsCommand, SettingsEvent, SettingsState> = {
  decide,
  evolve,
  initialState: initialSettingsState,
};
