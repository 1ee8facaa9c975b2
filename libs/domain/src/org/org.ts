import { assertNever, ErrorCode, type Command, type Decider, type DomainEvent } from '../kernel';
import { text } from '../kernel/validation';
import { refusal } from '../sandbox/sandbox.refusals';

/** An org: what API keys, environments and sandboxes belong to. One stream per org. */
export function orgStream(orgId: string): string {
  return `org-${orgId}`;
}

/** The org every installation starts with. */
export const DEFAULT_ORG_ID = '00000000-0000-4000-8000-000000000001';
export const DEFAULT_ORG_NAME = 'Default';
export const ORG_NAME_MAX_LENGTH = 100;

export type CreateOrg = Command<'CreateOrg', { orgId: string; name: unknown }>;
export type OrgCommand = CreateOrg;

export type OrgCreated = DomainEvent<'OrgCreated', { orgId: string; name: string; at: string }>;
export type OrgEvent = OrgCreated;

export interface OrgState {
  exists: boolean;
  name: string | null;
}

function decide(command: OrgCommand, state: OrgState): OrgEvent[] {
  switch (command.type) {
    case 'CreateOrg': {
      const name = text(command.data.name, 'name', ORG_NAME_MAX_LENGTH);
      if (state.exists) {
        if (state.name === name) return [];
        throw refusal(
          'invalid_argument',
          ErrorCode.AlreadyExists,
          `org ${command.data.orgId} exists`,
        );
      }
      return [
        { type: 'OrgCreated', data: { orgId: command.data.orgId, name, at: command.metadata.at } },
      ];
    }
    default:
      return assertNever(command.type);
  }
}

function evolve(_state: OrgState, event: OrgEvent): OrgState {
  return { exists: true, name: event.data.name };
}

/** Creating an org twice with the same name is the same org (a boot that repeats it). */
export const orgDecider: Decider<OrgCommand, OrgEvent, OrgState> = {
  decide,
  evolve,
  initialState: { exists: false, name: null },
};
