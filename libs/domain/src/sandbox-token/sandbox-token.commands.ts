import type { Command } from '../kernel';
import type { TokenVia } from './sandbox-token.events';

/**
 * Make a token for one sandbox. `args` are sandbox_create_token's own parameters as they came
 * (checked by the decider); `sandboxSecrets` are the names the sandbox was created with.
 */
export type CreateSandboxToken = Command<
  'CreateSandboxToken',
  {
    tokenId: string;
    orgId: string;
    sandboxId: string;
    keyId: string;
    hash: string;
    sandboxSecrets: readonly string[];
    args: { abilities?: unknown; expires_in_seconds?: unknown; origins?: unknown };
  }
>;

export type RecordSandboxTokenUsed = Command<
  'RecordSandboxTokenUsed',
  { tokenId: string; via: TokenVia; ability: unknown; tool: string }
>;

export type SandboxTokenCommand = CreateSandboxToken | RecordSandboxTokenUsed;
