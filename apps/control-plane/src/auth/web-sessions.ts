import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SharedState } from '../infrastructure/shared-state';
import { secretsDir } from './account-store';

interface WebSession {
  username: string;
  createdAt: number;
  lastSeen: number;
}

/** A sign-in lasts while used: it ends after a week without a request. */
export const IDLE_LIMIT_MS = 7 * 24 * 3600 * 1000;
/** lastSeen is written back at most this often, not on every request. */
const TOUCH_EVERY_MS = 60_000;
const PREFIX = 'sign-in:';

const digest = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * Signed-in browsers and programs, in the shared state (so every control-plane instance knows
 * them, and a restart signs nobody out). The token goes to the client once; the store keeps
 * only its SHA-256 under `sign-in:<digest>`, so reading it does not sign anyone in. A sign-in
 * expires a week after its last use (the key's expiry, renewed at most once a minute).
 */
export class WebSessions {
  constructor(
    private readonly state: SharedState,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Sign-ins an earlier release kept in `<data>/secrets/web-sessions.json` move into the shared
   * state once, so an upgrade signs nobody out; the file is removed after.
   */
  async importLegacyFile(dataDir: string): Promise<number> {
    const file = path.join(secretsDir(dataDir), 'web-sessions.json');
    if (!fs.existsSync(file)) return 0;
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, WebSession>;
    let moved = 0;
    for (const [key, s] of Object.entries(saved)) {
      const left = IDLE_LIMIT_MS - (this.now() - s.lastSeen);
      if (left <= 0) continue;
      await this.state.set(PREFIX + key, JSON.stringify(s), left);
      moved++;
    }
    fs.rmSync(file, { force: true });
    return moved;
  }

  async open(username: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const at = this.now();
    const session: WebSession = { username, createdAt: at, lastSeen: at };
    await this.state.set(PREFIX + digest(token), JSON.stringify(session), IDLE_LIMIT_MS);
    return token;
  }

  /** The sign-in this token is, or null for an unknown, closed or idle token. */
  async resolve(token: string): Promise<{ username: string; createdAt: number } | null> {
    const key = PREFIX + digest(token);
    const raw = await this.state.get(key);
    if (raw === null) return null;
    const session = JSON.parse(raw) as WebSession;
    const at = this.now();
    if (at - session.lastSeen > IDLE_LIMIT_MS) {
      await this.state.delete(key);
      return null;
    }
    if (at - session.lastSeen > TOUCH_EVERY_MS) {
      await this.state.set(key, JSON.stringify({ ...session, lastSeen: at }), IDLE_LIMIT_MS);
    }
    return { username: session.username, createdAt: session.createdAt };
  }

  async close(token: string): Promise<void> {
    await this.state.delete(PREFIX + digest(token));
  }
}
