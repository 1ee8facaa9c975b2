import type { DomainEvent } from '../kernel';
import type { Settings } from './settings.state';

/** The whole new settings object. It holds the GitHub token and MCP env values as given. */
export type SettingsUpdated = DomainEvent<'SettingsUpdated', { settings: Settings; at: string }>;

export type SettingsEvent = SettingsUpdated;

export const SETTINGS_EVENT_TYPES: readonly SettingsEvent['type'][] = ['SettingsUpdated'];

export function isSettingsEvent(event: { type: string; data: unknown }): event is SettingsEvent {
  return (SETTINGS_EVENT_TYPES as readonly string[]).includes(event.type);
}
