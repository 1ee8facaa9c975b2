import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AccountStore } from './account-store';
import { tokenOf, crossSite } from './credentials-of';
import { SqliteSharedState } from '../infrastructure/shared-state';
import { SignInThrottle } from './sign-in-throttle';
import { IDLE_LIMIT_MS, WebSessions } from './web-sessions';

const dirs: string[] = [];
const dataDir = (): string => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-auth-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('the account file', () => {
  it('keeps an scrypt hash, never the password, and checks it', async () => {
    const dir = dataDir();
    const store = new AccountStore(dir);
    await store.setPassword('admin', 'correct horse battery');
    const text = fs.readFileSync(store.file, 'utf8');
    expect(text).not.toContain('correct horse');
    expect(fs.statSync(store.file).mode & 0o777).toBe(0o600);
    expect(await store.check('admin', 'correct horse battery')).toBe(true);
    expect(await store.check('admin', 'correct horse batterY')).toBe(false);
    expect(await store.check('root', 'correct horse battery')).toBe(false);
  });

  it('refuses a short password or a strange name and keeps the old one', async () => {
    const store = new AccountStore(dataDir());
    await store.setPassword('admin', 'first-password');
    await expect(store.setPassword('admin', 'short')).rejects.toThrow(/at least 8/);
    await expect(store.setPassword('a b', 'long enough')).rejects.toThrow(/user name/);
    expect(await store.check('admin', 'first-password')).toBe(true);
  });

  it('applies the environment password at start only when it differs', async () => {
    const store = new AccountStore(dataDir());
    const first = await store.ensure('admin', 'from-the-env-1');
    const again = await store.ensure('admin', 'from-the-env-1');
    expect(again.account.updatedAt).toBe(first.account.updatedAt);
    const changed = await store.ensure('admin', 'from-the-env-2');
    expect(await store.check('admin', 'from-the-env-2')).toBe(true);
    expect(changed.generated).toBe(false);
  });
});

describe('sign-in tokens', () => {
  it('stores only digests, survives a reopen, and ends after a week idle', async () => {
    const dir = dataDir();
    let now = 1_000_000;
    const file = path.join(dir, 'shared.sqlite');
    const state = new SqliteSharedState(file, () => now);
    const sessions = new WebSessions(state, () => now);
    const token = await sessions.open('admin');
    await state.close();
    expect(fs.readFileSync(file).includes(token)).toBe(false);
    // Another process (another instance, or this one restarted) on the same state.
    const other = new SqliteSharedState(file, () => now);
    const reopened = new WebSessions(other, () => now);
    expect((await reopened.resolve(token))?.username).toBe('admin');
    expect(await reopened.resolve(`${token}x`)).toBeNull();
    now += IDLE_LIMIT_MS + 1;
    expect(await reopened.resolve(token)).toBeNull();
    await other.close();
  });

  it("moves an earlier release's sign-in file into the shared state once", async () => {
    const dir = dataDir();
    const now = 5_000_000;
    const secrets = path.join(dir, 'secrets');
    fs.mkdirSync(secrets, { recursive: true });
    const token = 'legacy-token';
    const key = createHash('sha256').update(token).digest('hex');
    const legacy = path.join(secrets, 'web-sessions.json');
    fs.writeFileSync(
      legacy,
      JSON.stringify({
        [key]: { username: 'admin', createdAt: now - 10, lastSeen: now - 10 },
        stale: { username: 'admin', createdAt: 0, lastSeen: now - IDLE_LIMIT_MS - 1 },
      }),
    );
    const state = new SqliteSharedState(path.join(dir, 'shared.sqlite'), () => now);
    const sessions = new WebSessions(state, () => now);
    expect(await sessions.importLegacyFile(dir)).toBe(1);
    expect(fs.existsSync(legacy)).toBe(false);
    expect((await sessions.resolve(token))?.username).toBe('admin');
    await state.close();
  });

  it('reads the bearer header first, then the cookie, and spots another site', () => {
    expect(tokenOf({ authorization: 'Bearer abc', cookie: 'sb_session=def' })).toBe('abc');
    expect(tokenOf({ cookie: 'theme=dark; sb_session=def' })).toBe('def');
    expect(tokenOf({ cookie: 'sb_session=' })).toBeNull();
    expect(tokenOf({})).toBeNull();
    expect(crossSite({ host: '127.0.0.1:8080', origin: 'http://127.0.0.1:8080' })).toBe(false);
    expect(crossSite({ host: '127.0.0.1:8080', origin: 'http://evil.example' })).toBe(true);
    expect(crossSite({ host: '127.0.0.1:8080', origin: 'null' })).toBe(true);
    expect(crossSite({ host: '127.0.0.1:8080' })).toBe(false);
  });
});

describe('the sign-in throttle', () => {
  it('locks an address for a minute after five failures; a success clears it', async () => {
    let now = 1_000_000;
    const file = path.join(dataDir(), 'shared.sqlite');
    const state = new SqliteSharedState(file, () => now);
    const throttle = new SignInThrottle(state, () => now);
    for (let i = 0; i < 4; i++) await throttle.failed('a');
    expect(await throttle.waitSeconds('a')).toBe(0);
    await throttle.failed('a');
    expect(await throttle.waitSeconds('a')).toBe(60);
    expect(await throttle.waitSeconds('b')).toBe(0);
    // A restart (or another instance) sees the same lock.
    const other = new SqliteSharedState(file, () => now);
    expect(await new SignInThrottle(other, () => now).waitSeconds('a')).toBe(60);
    await other.close();
    now += 61_000;
    expect(await throttle.waitSeconds('a')).toBe(0);
    // The lock does not renew itself: after it, five tries again.
    for (let i = 0; i < 4; i++) await throttle.failed('a');
    expect(await throttle.waitSeconds('a')).toBe(0);
    await throttle.failed('a');
    expect(await throttle.waitSeconds('a')).toBe(60);
    now += 61_000;
    await throttle.succeeded('a');
    await throttle.failed('a');
    expect(await throttle.waitSeconds('a')).toBe(0);
    await state.close();
  });
});
