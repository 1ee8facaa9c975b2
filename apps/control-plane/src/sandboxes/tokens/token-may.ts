import {
  abilitiesAllow,
  abilityNeeded,
  tokenTools,
  type TokenAbility,
  type TokenVia,
} from '@sessionboxer/domain/sandbox-token';
import { callTool, type CallOutcome } from '../call-tool';
import type { Sandboxes } from '../sandboxes.service';
import type { AnySandboxTool, SandboxApi } from '../tools';
import type { SandboxTokens } from './sandbox-tokens.service';
import { tokenCaller, type TokenIdentity } from './token-identity';

export type TokenVerdict = { ok: true; ability: TokenAbility } | (CallOutcome & { ok: false });

const forbid = (message: string): TokenVerdict => ({
  ok: false,
  status: 403,
  error: { error: 'forbidden', message },
});

/**
 * The one rule of what a token's call may do, for the MCP server and the REST API alike: a
 * desktop tool its abilities allow (TOKEN_TOOLS), on its own sandboxes; `sandboxIdOf` resolves
 * the call's sandbox (a name or an id, null when there is none) in the token's org.
 */
export function tokenMay(
  tool: string,
  args: unknown,
  identity: TokenIdentity,
  sandboxIdOf: (ref: string) => string | null,
): TokenVerdict {
  const needs = abilityNeeded(tool, args);
  if (needs === null) {
    return forbid(
      `a sandbox token reaches only its sandbox's desktop (${tokenTools(identity.abilities).join(', ')}), not ${tool}`,
    );
  }
  if (!abilitiesAllow(identity.abilities, needs)) {
    const action = (args as { action?: unknown } | null)?.action;
    const what =
      tool === 'sandbox_desktop'
        ? `sandbox_desktop ${typeof action === 'string' ? action : 'start'}`
        : tool;
    return forbid(
      `this token may only view (abilities ["view"]): ${what} needs a token with abilities ["control"]`,
    );
  }
  const ref = (args as { sandbox?: unknown } | null)?.sandbox;
  const id = typeof ref === 'string' && ref.length > 0 ? sandboxIdOf(ref) : null;
  if (id !== identity.sandboxId) {
    return forbid(
      `a sandbox token reaches only its own sandbox's desktop (sandbox ${identity.sandboxId}), not ${typeof ref === 'string' ? ref : 'a call without sandbox'}`,
    );
  }
  return { ok: true, ability: needs };
}

/** The sandbox a reference names in the token's org, or null. */
function sandboxIdIn(sandboxes: Sandboxes, identity: TokenIdentity) {
  return (ref: string): string | null => {
    try {
      return sandboxes.resolve(tokenCaller(identity), ref).id;
    } catch {
      return null;
    }
  };
}

/**
 * A token's call through `via`: tokenMay, its first use recorded, then the same path as a
 * key's call (callTool) as the key that minted it.
 */
export async function callAsToken(
  tool: AnySandboxTool,
  api: SandboxApi,
  tokens: SandboxTokens,
  identity: TokenIdentity,
  args: unknown,
  via: TokenVia,
): Promise<CallOutcome> {
  const verdict = tokenMay(tool.name, args, identity, sandboxIdIn(api.sandboxes, identity));
  if (!verdict.ok) return verdict;
  await tokens.used(identity, via, tool.name, verdict.ability);
  return callTool(tool, api, tokenCaller(identity), args);
}
