import type { DomainEvent } from '../kernel';
import type { TokenAbility } from './sandbox-token.limits';

/** Where a token was used: the MCP server, the REST API, or the watch page. */
export type TokenVia = 'mcp' | 'rest' | 'watch';
export const TOKEN_VIAS: readonly TokenVia[] = ['mcp', 'rest', 'watch'];

/**
 * A token was made. Only the sha256 (hex) of its secret is recorded, never the token; keyId
 * is the API key that minted it (revoking that key ends the token).
 */
export type SandboxTokenCreated = DomainEvent<
  'SandboxTokenCreated',
  {
    tokenId: string;
    orgId: string;
    sandboxId: string;
    keyId: string;
    abilities: TokenAbility[];
    origins: string[];
    expiresAt: string;
    hash: string;
    at: string;
  }
>;

/**
 * The first use of a token through one entry point for one ability (at most one event per
 * via × ability, so six per token), not every call: enough for an auditor to see that and
 * how it was used, without an event per screenshot.
 */
export type SandboxTokenUsed = DomainEvent<
  'SandboxTokenUsed',
  {
    tokenId: string;
    sandboxId: string;
    via: TokenVia;
    ability: TokenAbility;
    tool: string;
    at: string;
  }
>;

export type SandboxTokenEvent = SandboxTokenCreated | SandboxTokenUsed;
export const SANDBOX_TOKEN_EVENT_TYPES: readonly SandboxTokenEvent['type'][] = [
  'SandboxTokenCreated',
  'SandboxTokenUsed',
];

/** The key of a SandboxTokenUsed in the state's `used`. */
export const usedKey = (via: TokenVia, ability: TokenAbility) => `${via}:${ability}`;
