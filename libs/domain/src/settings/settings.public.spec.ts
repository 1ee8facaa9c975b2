import { looksLikeSecret, publicSettings, withoutSecrets } from './settings.public';
import { defaultSettings, type Settings } from './settings.state';

const GHP = 'ghp_16C7e42F292c6912E7710c838347Ae178B4a';

const configured: Settings = {
  defaults: { provider: 'claude-code', model: 'claude-opus-4', environment: 'docker-linux' },
  sessionboxer: { agentTools: 'all', sessionCreation: 'dont_ask', globalCap: 5 },
  gitIdentity: { name: 'Ada Lovelace', email: 'ada@example.com' },
  github: { token: GHP, webhookSecret: 'hunter2', pollSeconds: 30 },
  mcpRegistry: [
    {
      name: 'postgres',
      command: ['npx', '-y', '@modelcontextprotocol/server-postgres', 'postgresql://app:pw@db/app'],
      env: { PGHOST: 'db', PGPASSWORD: 'pw', LOG_LEVEL: 'debug' },
    },
    {
      name: 'slack',
      command: ['slack-mcp', '--token', 'xoxb-123456789012-abcdefghijklmnop'],
      env: {},
    },
  ],
  environments: ['docker-linux', 'qemu-macos'],
  desktop: { narration: 'never', askAboveSeconds: 5 },
  autoQa: { afterEachTurn: true },
  notifications: { mcp: { debounceMs: 250 } },
};

describe('publicSettings', () => {
  it('removes the secrets and keeps everything else, with the same shape', () => {
    expect(publicSettings(configured)).toEqual({
      defaults: { provider: 'claude-code', model: 'claude-opus-4', environment: 'docker-linux' },
      sessionboxer: { agentTools: 'all', sessionCreation: 'dont_ask', globalCap: 5 },
      gitIdentity: { name: 'Ada Lovelace', email: 'ada@example.com' },
      github: { token: null, webhookSecret: null, pollSeconds: 30 },
      mcpRegistry: [
        {
          name: 'postgres',
          command: ['npx', '-y', '@modelcontextprotocol/server-postgres', null],
          env: { PGHOST: null, PGPASSWORD: null, LOG_LEVEL: null },
        },
        { name: 'slack', command: ['slack-mcp', '--token', null], env: {} },
      ],
      environments: ['docker-linux', 'qemu-macos'],
      desktop: { narration: 'never', askAboveSeconds: 5 },
      autoQa: { afterEachTurn: true },
      notifications: { mcp: { debounceMs: 250 } },
    });
  });

  it('leaves the settings it was given untouched', () => {
    const before = JSON.stringify(configured);
    publicSettings(configured);
    expect(JSON.stringify(configured)).toBe(before);
  });

  it('leaves the defaults as they are: nothing secret in them', () => {
    expect(publicSettings(defaultSettings)).toEqual(defaultSettings);
  });

  it('never lets a known secret through, whatever the path', () => {
    const json = JSON.stringify(publicSettings(configured));
    for (const secret of [GHP, 'hunter2', 'PGPASSWORD":"pw', 'app:pw@', 'xoxb-']) {
      expect(json).not.toContain(secret);
    }
  });
});

describe('withoutSecrets (the same rules on any JSON)', () => {
  it('removes every string under a secret-named key, at any depth, in objects and lists', () => {
    const value = {
      a: {
        b: {
          apiKey: 'short',
          c: [{ password: 'p' }, { passwd: 'p' }, { Credentials: { user: 'u', pin: 1234 } }],
        },
      },
      review: { authToken: 'x', author: 'Grace' },
      keys: ['one', 'two'],
      privateNote: 'x',
      clientSecret: 'x',
      sshPassphrase: 'x',
      cookies: ['a=b'],
    };
    expect(withoutSecrets(value)).toEqual({
      a: {
        b: {
          apiKey: null,
          c: [{ password: null }, { passwd: null }, { Credentials: { user: null, pin: 1234 } }],
        },
      },
      review: { authToken: null, author: 'Grace' },
      keys: [null, null],
      privateNote: null,
      clientSecret: null,
      sshPassphrase: null,
      cookies: [null],
    });
  });

  it('removes every value of any env object, however deep', () => {
    expect(withoutSecrets({ x: [{ y: { env: { HOME: '/root', N: { M: 'v' } } } }] })).toEqual({
      x: [{ y: { env: { HOME: null, N: { M: null } } } }],
    });
  });

  it('keeps numbers, booleans and nulls, and keys named like environment', () => {
    const value = { tokenCount: 3, secretive: false, apiKey: null, environment: 'docker-linux' };
    expect(withoutSecrets(value)).toEqual(value);
  });
});

describe('looksLikeSecret', () => {
  it.each([
    ['a GitHub token', GHP],
    ['a fine-grained GitHub token', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz'],
    ['an OpenAI-style key', 'sk-proj-abcdefghijklmnopqrstuvwx'],
    ['an Anthropic key', 'sk-ant-api03-abcdefghijklmnop'],
    ['a Slack bot token', 'xoxb-123456789012-abcdefghijklmnop'],
    ['an AWS access key id', 'AKIAIOSFODNN7EXAMPLE'],
    ['a GitLab token', 'glpat-abcdefghijklmnopqrst'],
    ['a token in a flag', '--api-key=sk-abcdefghijklmnopqrstuv'],
    ['a token after a header name', 'Authorization: Bearer ghp_abcdefghijklmnopqrstuvwxyz0123'],
    ['an opaque bearer token', 'Bearer abcd1234'],
    ['basic credentials', 'Authorization: Basic YWRhOnB3ZA=='],
    ['a JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.signature'],
    [
      'a private key',
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk=\n-----END OPENSSH PRIVATE KEY-----',
    ],
    ['a URL with a password', 'postgresql://app:s3cret@db.internal:5432/app'],
    ['32 hex digits', '0123456789abcdef0123456789ABCDEF'],
    ['a SHA-1 in a sentence', 'pinned to da39a3ee5e6b4b0d3255bfef95601890afd80709 for now'],
    ['long mixed-case base64', 'dGhpcyBpcyBhIHNlY3JldCB0b2tlbiBmb3IgdGVzdHMx'],
    ['base64url with padding', 'Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MEFCQ0RFRkdISUo='],
  ])('spots %s', (_case, value) => {
    expect(looksLikeSecret(value)).toBe(true);
  });

  it.each([
    ['a provider id', 'claude-code'],
    ['a model', 'claude-sonnet-4-5-20250929'],
    ['an email', 'ada@example.com'],
    ['a name', 'Ada Lovelace'],
    ['an absolute path', '/home/agent/workspace/node_modules/Package2/distribution'],
    ['a package', '@modelcontextprotocol/server-filesystem'],
    ['a URL without a password', 'https://github.com/acme/api/pull/12'],
    ['a URL with only a user', 'ssh://git@github.com/acme/api.git'],
    ['a short sk- word', 'sk-learn'],
    ['31 hex digits', '0123456789abcdef0123456789abcde'],
    ['a long lower-case word', 'supercalifragilisticexpialidocious-and-more'],
    ['a flag', '--allow-write=/workspace'],
    ['the word bearer in prose', 'the bearer of news'],
    ['the empty string', ''],
  ])('leaves %s', (_case, value) => {
    expect(looksLikeSecret(value)).toBe(false);
  });
});
