import type { BoxCommand, BoxEvent, BoxProvisioned, ProvisionBox } from '../src';
import { AT, meta } from './session-fixtures';

/** Builders for box commands and events. */
type ProvisionData = ProvisionBox['data'];

export const BOX: Omit<ProvisionData, 'sessionId'> = {
  workspacePath: '/var/lib/sessionboxer/boxes/s1/workspace',
  mcpJsonPath: '/var/lib/sessionboxer/boxes/s1/workspace/.mcp.json',
  isolation: 'bubblewrap',
};

export function provisionBox(data: Partial<ProvisionData> = {}, at = AT): ProvisionBox {
  return {
    type: 'ProvisionBox',
    data: { sessionId: 's1', ...BOX, ...data },
    metadata: meta({ at }),
  };
}

export function boxProvisioned(data: Partial<ProvisionData> = {}, at = AT): BoxProvisioned {
  return { type: 'BoxProvisioned', data: { ...provisionBox(data).data, at } };
}

type SimpleCommand = Exclude<BoxCommand, ProvisionBox>;

/** A box command other than ProvisionBox; FailBox takes its reason. */
export function boxCommand(
  type: SimpleCommand['type'],
  sessionId = 's1',
  reason = 'bwrap: No permissions to create new namespace',
): SimpleCommand {
  const data = type === 'FailBox' ? { sessionId, reason } : { sessionId };
  return { type, data, metadata: meta() } as SimpleCommand;
}

type SimpleEvent = Exclude<BoxEvent, BoxProvisioned>;

export function boxEvent(
  type: SimpleEvent['type'],
  sessionId = 's1',
  reason = 'bwrap: No permissions to create new namespace',
  at = AT,
): SimpleEvent {
  const data = type === 'BoxFailed' ? { sessionId, reason, at } : { sessionId, at };
  return { type, data } as SimpleEvent;
}
