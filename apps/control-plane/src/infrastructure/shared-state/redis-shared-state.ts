import { Redis } from 'ioredis';
import type { SharedState } from './shared-state.port';

// Compare-and-act scripts: a lease is changed only by the instance that holds it.
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;
const INCREMENT = `local n = redis.call('INCR', KEYS[1]) if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return n`;

/**
 * SharedState in Redis, every key under `prefix` (one installation's instances share it; two
 * installations on one Redis do not meet). Expiry is Redis's own.
 */
export class RedisSharedState implements SharedState {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly prefix: string,
  ) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 3, lazyConnect: false });
  }

  get(key: string): Promise<string | null> {
    return this.redis.get(this.prefix + key);
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    if (ttlMs === undefined) await this.redis.set(this.prefix + key, value);
    else await this.redis.set(this.prefix + key, value, 'PX', ttlMs);
  }

  async claim(key: string, value: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(this.prefix + key, value, 'PX', ttlMs, 'NX')) === 'OK';
  }

  async renew(key: string, value: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.eval(RENEW, 1, this.prefix + key, value, String(ttlMs))) === 1;
  }

  async release(key: string, value: string): Promise<boolean> {
    return (await this.redis.eval(RELEASE, 1, this.prefix + key, value)) === 1;
  }

  async delete(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }

  async increment(key: string, ttlMs: number): Promise<number> {
    return Number(await this.redis.eval(INCREMENT, 1, this.prefix + key, String(ttlMs)));
  }

  async scan(prefix: string): Promise<Map<string, string>> {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await this.redis.scan(
        cursor,
        'MATCH',
        `${escapeGlob(this.prefix + prefix)}*`,
        'COUNT',
        500,
      );
      cursor = next;
      keys.push(...batch);
    } while (cursor !== '0');
    if (keys.length === 0) return new Map();
    const values = await this.redis.mget(...keys);
    const found = new Map<string, string>();
    keys.forEach((k, i) => {
      const v = values[i];
      if (v !== null && v !== undefined) found.set(k.slice(this.prefix.length), v);
    });
    return found;
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

function escapeGlob(s: string): string {
  return s.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}
