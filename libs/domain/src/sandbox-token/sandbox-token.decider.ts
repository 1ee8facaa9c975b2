import { assertNever, ErrorCode, type Decider } from '../kernel';
import { isoMs } from '../sandbox/iso-time';
import { badArgument, refusal } from '../sandbox/sandbox.refusals';
import type { SandboxTokenCommand } from './sandbox-token.commands';
import {
  TOKEN_VIAS,
  usedKey,
  type SandboxTokenCreated,
  type SandboxTokenEvent,
} from './sandbox-token.events';
import { isoFromMs } from './iso-from-ms';
import { TOKEN_ABILITIES, abilitiesAllow } from './sandbox-token.limits';
import { validAbilities, validExpiresIn, validOrigins } from './sandbox-token.validation';

/**
 * A token that opens one sandbox's desktop tools and nothing else (sandbox_create_token). It
 * is shown once; its stream holds its sha256, its sandbox, the key that minted it, its
 * abilities, origins and expiry, and its first uses. Whether it still works also depends on
 * the key's and the sandbox's streams, which the control plane reads on every call.
 */
export function sandboxTokenStream(tokenId: string): string {
  return `sandboxtoken-${tokenId}`;
}

export type SandboxTokenRecord = Omit<SandboxTokenCreated['data'], 'at'> & { createdAt: string };

export interface SandboxTokenState {
  token: SandboxTokenRecord | null;
  /** usedKey(via, ability) of every SandboxTokenUsed. */
  used: string[];
}

function decide(command: SandboxTokenCommand, state: SandboxTokenState): SandboxTokenEvent[] {
  const at = command.metadata.at;
  switch (command.type) {
    case 'CreateSandboxToken': {
      if (state.token !== null) {
        throw refusal('invalid_argument', ErrorCode.AlreadyExists, 'the token exists');
      }
      const { tokenId, orgId, sandboxId, keyId, hash, sandboxSecrets, args } = command.data;
      if (sandboxSecrets.length > 0) {
        throw refusal(
          'sandbox_has_secrets',
          ErrorCode.InvalidState,
          `the sandbox was created with secrets (${sandboxSecrets.join(', ')}), and a sandbox with secrets cannot have a token: create a sandbox without secrets`,
          { sandbox: sandboxId },
        );
      }
      if (!/^[0-9a-f]{64}$/.test(hash)) throw badArgument('hash', 'hash must be a sha256 in hex');
      const abilities = validAbilities(args.abilities);
      const expiresIn = validExpiresIn(args.expires_in_seconds);
      const origins = validOrigins(args.origins);
      const expiresAt = isoFromMs(isoMs(at) + expiresIn * 1000);
      const data = { tokenId, orgId, sandboxId, keyId, abilities, origins, expiresAt, hash, at };
      return [{ type: 'SandboxTokenCreated', data }];
    }
    case 'RecordSandboxTokenUsed': {
      const token = state.token;
      if (token === null) {
        throw refusal('not_found', ErrorCode.NotFound, `there is no token ${command.data.tokenId}`);
      }
      const { via, tool } = command.data;
      const ability = TOKEN_ABILITIES.find((a) => a === command.data.ability);
      if (ability === undefined || !TOKEN_VIAS.includes(via)) {
        throw badArgument('ability', 'a use is through mcp, rest or watch, with view or control');
      }
      if (!abilitiesAllow(token.abilities, ability)) {
        throw refusal('forbidden', ErrorCode.Forbidden, `the token cannot ${ability}`);
      }
      if (state.used.includes(usedKey(via, ability))) return [];
      const sandboxId = token.sandboxId;
      return [
        {
          type: 'SandboxTokenUsed',
          data: { tokenId: token.tokenId, sandboxId, via, ability, tool, at },
        },
      ];
    }
    default:
      return assertNever(command);
  }
}

function evolve(state: SandboxTokenState, event: SandboxTokenEvent): SandboxTokenState {
  switch (event.type) {
    case 'SandboxTokenCreated': {
      const { at, ...token } = event.data;
      return { token: { ...token, createdAt: at }, used: [] };
    }
    case 'SandboxTokenUsed':
      return { ...state, used: [...state.used, usedKey(event.data.via, event.data.ability)] };
    default:
      return assertNever(event);
  }
}

export const sandboxTokenDecider: Decider<
  SandboxTokenCommand,
  SandboxTokenEvent,
  SandboxTokenState
> = { decide, evolve, initialState: { token: null, used: [] } };

/** Whether the token has expired at `now` (ISO): from its expiresAt on, it does not work. */
export function tokenExpired(token: Pick<SandboxTokenRecord, 'expiresAt'>, now: string): boolean {
  return isoMs(now) >= isoMs(token.expiresAt);
}
