import { assertNever, ErrorCode, type Command, type Decider, type DomainEvent } from '../kernel';
import { has } from '../kernel/validation';
import { refusal } from './sandbox.refusals';

/**
 * The org's live sandbox names, one stream per org, so a name is unique among its live
 * sandboxes even when creates race: the name is claimed here (expected revision) before the
 * sandbox's own stream is written, and released when it is destroyed.
 */
export function sandboxNamesStream(orgId: string): string {
  return `sandboxnames-${orgId}`;
}

export type ClaimSandboxName = Command<
  'ClaimSandboxName',
  { orgId: string; sandboxId: string; name: string }
>;
export type ReleaseSandboxName = Command<
  'ReleaseSandboxName',
  { orgId: string; sandboxId: string }
>;
export type SandboxNameCommand = ClaimSandboxName | ReleaseSandboxName;

export type SandboxNameClaimed = DomainEvent<
  'SandboxNameClaimed',
  { orgId: string; sandboxId: string; name: string; at: string }
>;
export type SandboxNameReleased = DomainEvent<
  'SandboxNameReleased',
  { orgId: string; sandboxId: string; name: string; at: string }
>;
export type SandboxNameEvent = SandboxNameClaimed | SandboxNameReleased;

/** Name → sandbox id of the live ones. */
export interface SandboxNamesState {
  names: Readonly<Record<string, string>>;
}

function decide(command: SandboxNameCommand, state: SandboxNamesState): SandboxNameEvent[] {
  const { orgId, sandboxId } = command.data;
  const at = command.metadata.at;
  switch (command.type) {
    case 'ClaimSandboxName': {
      const { name } = command.data;
      if (has(state.names, name)) {
        if (state.names[name] === sandboxId) return [];
        throw refusal(
          'name_taken',
          ErrorCode.AlreadyExists,
          `a live sandbox is already named ${name}; pick another name or destroy it first`,
          { field: 'name' },
        );
      }
      return [{ type: 'SandboxNameClaimed', data: { orgId, sandboxId, name, at } }];
    }
    case 'ReleaseSandboxName': {
      const name = Object.keys(state.names).find((n) => state.names[n] === sandboxId);
      if (name === undefined) return [];
      return [{ type: 'SandboxNameReleased', data: { orgId, sandboxId, name, at } }];
    }
    default:
      return assertNever(command);
  }
}

function evolve(state: SandboxNamesState, event: SandboxNameEvent): SandboxNamesState {
  switch (event.type) {
    case 'SandboxNameClaimed':
      return { names: { ...state.names, [event.data.name]: event.data.sandboxId } };
    case 'SandboxNameReleased': {
      const { [event.data.name]: _gone, ...rest } = state.names;
      return { names: rest };
    }
    default:
      return assertNever(event);
  }
}

export const sandboxNamesDecider: Decider<SandboxNameCommand, SandboxNameEvent, SandboxNamesState> =
  { decide, evolve, initialState: { names: {} } };
