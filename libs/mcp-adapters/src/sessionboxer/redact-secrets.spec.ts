import { redactSecrets } from './redact-secrets';

describe('redactSecrets', () => {
  it('drops secret-named fields at any depth, keeping flags, counts and nulls', () => {
    const settings = {
      defaults: { provider: 'claude-code', model: 'default' },
      github: { token: 'abc', webhookSecret: null, pollSeconds: 60, hasToken: true },
      gitIdentity: { name: 'Ada', email: 'ada@example.com' },
      providers: [{ name: 'openai', apiKey: 'k', api_key: 'k', maxTokens: 8000 }],
      smtp: { password: 'p', passwd: 'p', privateKey: 'p', clientSecret: 's', cookie: 'c' },
    };
    expect(redactSecrets(settings)).toEqual({
      defaults: { provider: 'claude-code', model: 'default' },
      github: { webhookSecret: null, pollSeconds: 60, hasToken: true },
      gitIdentity: { name: 'Ada', email: 'ada@example.com' },
      providers: [{ name: 'openai', maxTokens: 8000 }],
      smtp: {},
    });
  });

  it('drops secret-looking values whatever their name', () => {
    const settings = {
      note: 'ghp_abcdefghijklmnopqrstuvwxyz0123',
      key2: 'sk-abcdefghijklmnopqrstu',
      header: 'Bearer abcdefghijkl',
      pem: '-----BEGIN RSA PRIVATE KEY-----\nMII…',
      registry: 'https://user:hunter2@registry.example.com/',
      list: ['fine', 'xoxb-1234567890-abcdef'],
      kept: 'https://registry.example.com/',
    };
    expect(redactSecrets(settings)).toEqual({
      list: ['fine'],
      kept: 'https://registry.example.com/',
    });
  });

  it("keeps an MCP server's environment variable names, never their values", () => {
    const settings = {
      mcpRegistry: [
        { name: 'search', command: ['node', 's.js'], env: { OPENAI_KEY: 'v', REGION: 'eu' } },
      ],
    };
    expect(redactSecrets(settings)).toEqual({
      mcpRegistry: [
        { name: 'search', command: ['node', 's.js'], env: { OPENAI_KEY: null, REGION: null } },
      ],
    });
  });
});
