import { ErrorCode } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import { AT, meta } from '../../test/session-fixtures';
import {
  sandboxTokenDecider,
  tokenExpired,
  type SandboxTokenCommand,
  type SandboxTokenEvent,
} from '.';

const spec = DeciderSpecification.for(sandboxTokenDecider);
const HASH = 'b'.repeat(64);
const create = (
  args: Record<string, unknown> = {},
  sandboxSecrets: string[] = [],
): SandboxTokenCommand => ({
  type: 'CreateSandboxToken',
  data: { tokenId: 't', orgId: 'o', sandboxId: 's', keyId: 'k', hash: HASH, sandboxSecrets, args },
  metadata: meta(),
});
const created = (over: Record<string, unknown> = {}): SandboxTokenEvent => ({
  type: 'SandboxTokenCreated',
  data: {
    tokenId: 't',
    orgId: 'o',
    sandboxId: 's',
    keyId: 'k',
    abilities: ['control'],
    origins: [],
    expiresAt: '2026-01-02T03:19:05.000Z',
    hash: HASH,
    at: AT,
    ...over,
  },
});
const use = (via: string, ability: string, tool = 'sandbox_screenshot'): SandboxTokenCommand => ({
  type: 'RecordSandboxTokenUsed',
  data: { tokenId: 't', via: via as 'mcp', ability, tool },
  metadata: meta(),
});
const used = (via: string, ability: string, tool = 'sandbox_screenshot'): SandboxTokenEvent => ({
  type: 'SandboxTokenUsed',
  data: {
    tokenId: 't',
    sandboxId: 's',
    via: via as 'mcp',
    ability: ability as 'view',
    tool,
    at: AT,
  },
});

describe('sandbox token decider', () => {
  describe('none yet', () => {
    it('defaults: control, 900 s, no origins; only the hash is recorded', () => {
      spec.given([]).when(create()).then([created()]);
    });
    it('takes view, 60 and 3600 s, and up to 10 origins (lower-cased, each once)', () => {
      spec
        .given([])
        .when(create({ abilities: ['view'], expires_in_seconds: 60 }))
        .then([created({ abilities: ['view'], expiresAt: '2026-01-02T03:05:05.000Z' })]);
      spec
        .given([])
        .when(create({ expires_in_seconds: 3600 }))
        .then([created({ expiresAt: '2026-01-02T04:04:05.000Z' })]);
      const ten = Array.from({ length: 10 }, (_, i) => `https://app${i}.example.com`);
      spec
        .given([])
        .when(create({ origins: [...ten, 'HTTPS://APP0.example.com'].slice(1) }))
        .then([created({ origins: [...ten.slice(1), 'https://app0.example.com'] })]);
      spec
        .given([])
        .when(create({ origins: ['http://127.0.0.1:5173', 'http://127.0.0.1:5173'] }))
        .then([created({ origins: ['http://127.0.0.1:5173'] })]);
    });
    it('refuses a sandbox with secrets with sandbox_has_secrets', () => {
      spec
        .given([])
        .when(create({}, ['API_TOKEN']))
        .thenThrows(ErrorCode.InvalidState, /created with secrets \(API_TOKEN\)/);
      try {
        sandboxTokenDecider.decide(create({}, ['X']), sandboxTokenDecider.initialState);
      } catch (e) {
        expect((e as { details: unknown }).details).toMatchObject({ code: 'sandbox_has_secrets' });
      }
      expect.assertions(3);
    });
    it('refuses bad parameters, naming each', () => {
      const bad: [Record<string, unknown>, RegExp][] = [
        [{ abilities: ['view', 'control'] }, /^abilities must be \["view"\] or \["control"\]/],
        [{ abilities: [] }, /^abilities must be/],
        [{ abilities: 'view' }, /^abilities must be/],
        [{ abilities: ['admin'] }, /^abilities must be/],
        [{ expires_in_seconds: 59 }, /^expires_in_seconds must be .* from 60 to 3600 \(got 59\)/],
        [{ expires_in_seconds: 3601 }, /^expires_in_seconds .*\(got 3601\)/],
        [{ expires_in_seconds: 90.5 }, /^expires_in_seconds/],
        [{ expires_in_seconds: '900' }, /^expires_in_seconds/],
        [
          { origins: Array.from({ length: 11 }, (_, i) => `https://a${i}.example.com`) },
          /^origins holds at most 10 origins \(got 11\)/,
        ],
        [{ origins: ['https://app.example.com/'] }, /^origins\[0\] must be a scheme and host/],
        [{ origins: ['https://a.example.com', 'https://app.example.com/page'] }, /^origins\[1\]/],
        [{ origins: ['https://app.example.com?x=1'] }, /^origins\[0\]/],
        [{ origins: ['https://user@app.example.com'] }, /^origins\[0\]/],
        [{ origins: ['ftp://app.example.com'] }, /^origins\[0\]/],
        [{ origins: ['app.example.com'] }, /^origins\[0\]/],
        [{ origins: [42] }, /^origins\[0\]/],
        [{ origins: 'https://app.example.com' }, /^origins must be a list/],
      ];
      for (const [args, message] of bad) {
        spec.given([]).when(create(args)).thenThrows(ErrorCode.ValidationFailed, message);
      }
    });
    it('a use of a token that does not exist is not_found', () => {
      spec.given([]).when(use('mcp', 'view')).thenThrows(ErrorCode.NotFound);
    });
  });

  describe('made', () => {
    it('is made once', () => {
      spec.given([created()]).when(create()).thenThrows(ErrorCode.AlreadyExists);
    });
    it('records the first use per entry point and ability, and nothing for the next', () => {
      spec
        .given([created()])
        .when(use('mcp', 'view'))
        .then([used('mcp', 'view')]);
      spec
        .given([created(), used('mcp', 'view')])
        .when(use('mcp', 'view', 'x'))
        .thenNothing();
      spec
        .given([created(), used('mcp', 'view')])
        .when(use('mcp', 'control', 'sandbox_input'))
        .then([used('mcp', 'control', 'sandbox_input')]);
      spec
        .given([created(), used('mcp', 'view')])
        .when(use('rest', 'view'))
        .then([used('rest', 'view')]);
      spec
        .given([created()])
        .when(use('watch', 'view', 'watch'))
        .then([used('watch', 'view', 'watch')]);
    });
    it('a view token records no control use; an unknown entry point is refused', () => {
      spec
        .given([created({ abilities: ['view'] })])
        .when(use('mcp', 'control'))
        .thenThrows(ErrorCode.Forbidden, /cannot control/);
      spec.given([created()]).when(use('ssh', 'view')).thenThrows(ErrorCode.ValidationFailed);
    });
  });

  it('expires at expiresAt, not a millisecond later', () => {
    const token = { expiresAt: '2026-01-02T03:19:05.000Z' };
    expect(tokenExpired(token, '2026-01-02T03:19:04.999Z')).toBe(false);
    expect(tokenExpired(token, '2026-01-02T03:19:05.000Z')).toBe(true);
  });
});
