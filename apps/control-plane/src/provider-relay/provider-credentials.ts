import type { CredentialName, HarnessName } from '@sessionboxer/domain';
import { BOX_EDGE } from '@sessionboxer/mcp-adapters';

/**
 * What a box holds of a provider's credential, and what the relay adds outside it. The box
 * gets a placeholder in the variable its CLI reads (so the CLI believes it has a key and
 * sends its requests) and the base URL of its edge's relay; the real value never leaves the
 * control plane.
 */
export const PLACEHOLDER_KEY = 'sessionboxer-placeholder';

/** The beta flag Anthropic's API wants with an OAuth token (Claude Code sends it itself too). */
export const ANTHROPIC_OAUTH_BETA = 'oauth-2025-04-20';

export type CredentialValue = (name: CredentialName) => string | null;

const ANTHROPIC_URL = BOX_EDGE.url + BOX_EDGE.routes.anthropic;
/** OpenAI's SDKs take a base URL with the version (`…/v1`), unlike Anthropic's. */
const OPENAI_URL = `${BOX_EDGE.url}${BOX_EDGE.routes.openai}/v1`;

/**
 * The provider environment of one harness's run: for each provider whose credential is set
 * (and that the harness speaks), a placeholder and the relay's URL. Nothing when none is set,
 * so the box still says credentials_missing.
 */
export function boxProviderEnv(
  harness: HarnessName,
  value: CredentialValue,
): Record<string, string> {
  const env: Record<string, string> = {};
  const apiKey = value('anthropicApiKey') !== null;
  const oauth = value('claudeCodeOauthToken') !== null;
  if (apiKey || oauth) {
    env.ANTHROPIC_BASE_URL = ANTHROPIC_URL;
    // Claude Code logged in with a token behaves as a subscription; the relay adds the real one.
    const variable =
      !apiKey && harness === 'claude-code' ? 'CLAUDE_CODE_OAUTH_TOKEN' : 'ANTHROPIC_API_KEY';
    env[variable] = PLACEHOLDER_KEY;
  }
  if (harness !== 'claude-code' && value('openaiApiKey') !== null) {
    env.OPENAI_BASE_URL = OPENAI_URL;
    env.OPENAI_API_KEY = PLACEHOLDER_KEY;
  }
  return env;
}

/** The headers the Anthropic relay adds: the API key, else the OAuth token; null if neither. */
export function anthropicAuth(value: CredentialValue): Record<string, string> | null {
  const key = value('anthropicApiKey');
  if (key !== null) return { 'x-api-key': key };
  const token = value('claudeCodeOauthToken');
  if (token === null) return null;
  return { authorization: `Bearer ${token}`, 'anthropic-beta': ANTHROPIC_OAUTH_BETA };
}

export function openAiAuth(value: CredentialValue): Record<string, string> | null {
  const key = value('openaiApiKey');
  return key === null ? null : { authorization: `Bearer ${key}` };
}
