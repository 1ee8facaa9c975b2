import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { startTestRedis, type TestRedis } from '../../jobs/test/redis-server';
import { RedisSharedState } from './redis-shared-state';
import { SqliteSharedState } from './sqlite-shared-state';
import type { SharedState } from './shared-state.port';

const dirs: string[] = [];
let redis: TestRedis;
beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  await redis.stop();
});

/** The same contract for both adapters: what every instance relies on. */
describe.each([
  [
    'SQLite',
    (): SharedState => {
      const dir = mkdtempSync(path.join(tmpdir(), 'shared-state-'));
      dirs.push(dir);
      return new SqliteSharedState(path.join(dir, 'shared.sqlite'));
    },
  ],
  ['Redis', (): SharedState => new RedisSharedState(redis.url, `test:${randomUUID()}:`)],
])('SharedState on %s', (_name, open) => {
  let state: SharedState;
  let other: SharedState;
  beforeEach(() => {
    state = open();
    other = state;
  });
  afterEach(async () => {
    await state.close();
  });
  afterAll(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('sets, gets and deletes; an expired key reads as absent', async () => {
    expect(await state.get('a')).toBeNull();
    await state.set('a', '1');
    await state.set('b', '2', 30);
    expect(await state.get('a')).toBe('1');
    expect(await state.get('b')).toBe('2');
    await new Promise((r) => setTimeout(r, 60));
    expect(await state.get('b')).toBeNull();
    await state.delete('a');
    expect(await state.get('a')).toBeNull();
  });

  it('gives a lease to one claimant only, renews and releases it for its holder only', async () => {
    const claims = await Promise.all(
      Array.from({ length: 20 }, (_, i) => other.claim('lease', `i${i}`, 10_000)),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    const holder = `i${claims.indexOf(true)}`;
    expect(await state.renew('lease', 'someone-else', 10_000)).toBe(false);
    expect(await state.release('lease', 'someone-else')).toBe(false);
    expect(await state.renew('lease', holder, 10_000)).toBe(true);
    expect(await state.release('lease', holder)).toBe(true);
    expect(await state.claim('lease', 'next', 40)).toBe(true);
    await new Promise((r) => setTimeout(r, 80));
    expect(await state.claim('lease', 'after-expiry', 10_000)).toBe(true);
    expect(await state.get('lease')).toBe('after-expiry');
  });

  it('counts from 1 with one expiry set at the first increment', async () => {
    expect(await state.increment('n', 60)).toBe(1);
    expect(await state.increment('n', 60)).toBe(2);
    await new Promise((r) => setTimeout(r, 100));
    expect(await state.increment('n', 60_000)).toBe(1);
  });

  it('scans the live keys under a prefix and nothing else', async () => {
    await state.set('box:1', 'a');
    await state.set('box:2', 'b');
    await state.set('box:3', 'c', 20);
    await state.set('boxes', 'x');
    await state.set('other:1', 'y');
    await new Promise((r) => setTimeout(r, 50));
    expect(Object.fromEntries(await state.scan('box:'))).toEqual({ 'box:1': 'a', 'box:2': 'b' });
  });
});
