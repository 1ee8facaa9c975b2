import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AccountStore } from './account-store';
import { tokenOf, crossSite } from './credentials-of';
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
  it('stores only digests, survives a reopen, and ends after a week idle', () => {
    const dir = dataDir();
    let now = 1_000_000;
    const sessions = new WebSessions(dir, () => now);
    const token = sessions.open('admin');
    const file = fs.readFileSync(path.join(dir, 'secrets/web-sessions.json'), 'utf8');
    expect(file).not.toContain(token);
    const reopened = new WebSessions(dir, () => now);
    expect(reopened.resolve(token)?.username).toBe('admin');
    expect(reopened.resolve(`${token}x`)).toBeNull();
    now += IDLE_LIMIT_MS + 1;
    expect(reopened.resolve(token)).toBeNull();
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
  it('locks an address for a minute after five failures; a success clears it', () => {
    let now = 0;
    const throttle = new SignInThrottle(() => now);
    for (let i = 0; i < 4; i++) throttle.failed('a');
    expect(throttle.waitSeconds('a')).toBe(0);
    throttle.failed('a');
    expect(throttle.waitSeconds('a')).toBe(60);
    expect(throttle.waitSeconds('b')).toBe(0);
    now += 61_000;
    expect(throttle.waitSeconds('a')).toBe(0);
    // The lock does not renew itself: after it, five tries again.
    for (let i = 0; i < 4; i++) throttle.failed('a');
    expect(throttle.waitSeconds('a')).toBe(0);
    throttle.failed('a');
    expect(throttle.waitSeconds('a')).toBe(60);
    now += 61_000;
    throttle.succeeded('a');
    throttle.failed('a');
    expect(throttle.waitSeconds('a')).toBe(0);
  });
});
