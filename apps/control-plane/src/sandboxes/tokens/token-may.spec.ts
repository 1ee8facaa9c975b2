import { tokenMay } from './token-may';
import type { TokenIdentity } from './token-identity';

const SANDBOX = '11111111-1111-4111-8111-111111111111';
const identity = (abilities: TokenIdentity['abilities']): TokenIdentity => ({
  tokenId: 't',
  orgId: 'o',
  keyId: 'k',
  sandboxId: SANDBOX,
  abilities,
  origins: [],
  expiresAt: '2026-01-02T03:19:05.000Z',
  used: [],
  scopes: ['sandboxes:read', 'sandboxes:write'],
});
const ids: Record<string, string> = { desk: SANDBOX, [SANDBOX]: SANDBOX, other: 'x' };
const may = (tool: string, args: unknown, abilities: TokenIdentity['abilities'] = ['control']) =>
  tokenMay(tool, args, identity(abilities), (ref) => ids[ref] ?? null);
const message = (v: ReturnType<typeof tokenMay>) => (v.ok ? 'allowed' : v.error.message);

describe('tokenMay', () => {
  it('allows its own desktop by name or id, with the ability the call needs', () => {
    expect(may('sandbox_screenshot', { sandbox: 'desk' }, ['view'])).toEqual({
      ok: true,
      ability: 'view',
    });
    expect(may('sandbox_desktop', { sandbox: SANDBOX, action: 'status' }, ['view'])).toEqual({
      ok: true,
      ability: 'view',
    });
    expect(may('sandbox_desktop', { sandbox: 'desk' })).toEqual({ ok: true, ability: 'control' });
    expect(may('sandbox_input', { sandbox: 'desk', action: 'cursor' })).toMatchObject({
      ok: true,
    });
  });

  it('refuses with 403 forbidden and says why', () => {
    const exec = may('sandbox_exec', { sandbox: 'desk', command: 'true' });
    expect(exec).toMatchObject({ ok: false, status: 403, error: { error: 'forbidden' } });
    expect(message(exec)).toMatch(/reaches only its sandbox's desktop \(.*\), not sandbox_exec/);
    expect(message(may('sandbox_input', { sandbox: 'desk' }, ['view']))).toMatch(
      /may only view .*sandbox_input needs a token with abilities \["control"\]/,
    );
    expect(message(may('sandbox_desktop', { sandbox: 'desk' }, ['view']))).toMatch(
      /sandbox_desktop start needs/,
    );
    for (const sandbox of ['other', 'missing', '', undefined, 42]) {
      expect(message(may('sandbox_screenshot', { sandbox }))).toMatch(
        /reaches only its own sandbox's desktop/,
      );
    }
    expect(message(may('sandbox_screenshot', null))).toMatch(/its own sandbox's desktop/);
  });
});
