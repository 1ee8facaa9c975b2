import type { CredentialName } from '@sessionboxer/domain';
import {
  anthropicAuth,
  boxProviderEnv,
  openAiAuth,
  PLACEHOLDER_KEY,
  type CredentialValue,
} from './provider-credentials';

const vault =
  (held: Partial<Record<CredentialName, string>>): CredentialValue =>
  (name) =>
    held[name] ?? null;

const ANTHROPIC = 'http://127.0.0.1:7001/provider/anthropic';

describe('what a box holds of a provider credential', () => {
  it('is a placeholder and the relay’s URL, never the value', () => {
    const value = vault({ anthropicApiKey: 'sk-ant-real', openaiApiKey: 'sk-openai-real' });
    expect(boxProviderEnv('claude-code', value)).toEqual({
      ANTHROPIC_BASE_URL: ANTHROPIC,
      ANTHROPIC_API_KEY: PLACEHOLDER_KEY,
    });
    expect(boxProviderEnv('opencode', value)).toEqual({
      ANTHROPIC_BASE_URL: ANTHROPIC,
      ANTHROPIC_API_KEY: PLACEHOLDER_KEY,
      OPENAI_BASE_URL: 'http://127.0.0.1:7001/provider/openai/v1',
      OPENAI_API_KEY: PLACEHOLDER_KEY,
    });
  });

  it('is an OAuth placeholder for Claude Code when only a token is set', () => {
    const value = vault({ claudeCodeOauthToken: 'sk-ant-oat01-real' });
    expect(boxProviderEnv('claude-code', value)).toEqual({
      ANTHROPIC_BASE_URL: ANTHROPIC,
      CLAUDE_CODE_OAUTH_TOKEN: PLACEHOLDER_KEY,
    });
    expect(anthropicAuth(value)).toEqual({
      authorization: 'Bearer sk-ant-oat01-real',
      'anthropic-beta': 'oauth-2025-04-20',
    });
  });

  it('is nothing when no credential is set, so the box says credentials_missing', () => {
    expect(boxProviderEnv('claude-code', vault({}))).toEqual({});
    // OpenRouter has no relay: its key stays out of the box rather than going in.
    expect(boxProviderEnv('opencode', vault({ openrouterApiKey: 'sk-or-real' }))).toEqual({});
    expect(anthropicAuth(vault({}))).toBeNull();
    expect(openAiAuth(vault({}))).toBeNull();
  });

  it('the relays prefer the API key and send OpenAI’s as a bearer', () => {
    const value = vault({ anthropicApiKey: 'k1', claudeCodeOauthToken: 't1', openaiApiKey: 'k2' });
    expect(anthropicAuth(value)).toEqual({ 'x-api-key': 'k1' });
    expect(openAiAuth(value)).toEqual({ authorization: 'Bearer k2' });
  });
});
