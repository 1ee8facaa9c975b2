import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
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

const digest = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * Signed-in browsers and programs. The token goes to the client once; the file
 * (`<data>/secrets/web-sessions.json`, 0600) keeps only its SHA-256, so reading the file does
 * not sign anyone in. Kept on disk so a restart of the control plane signs nobody out.
 */
export class WebSessions {
  private readonly file: string;
  private readonly sessions: Map<string, WebSession>;

  constructor(
    dataDir: string,
    private readonly now: () => number = Date.now,
  ) {
    this.file = path.join(secretsDir(dataDir), 'web-sessions.json');
    const saved = fs.existsSync(this.file)
      ? (JSON.parse(fs.readFileSync(this.file, 'utf8')) as Record<string, WebSession>)
      : {};
    this.sessions = new Map(Object.entries(saved));
  }

  open(username: string): string {
    const token = randomBytes(32).toString('base64url');
    const at = this.now();
    this.sessions.set(digest(token), { username, createdAt: at, lastSeen: at });
    this.save();
    return token;
  }

  /** The sign-in this token is, or null for an unknown, closed or idle token. */
  resolve(token: string): { username: string; createdAt: number } | null {
    const key = digest(token);
    const session = this.sessions.get(key);
    if (!session) return null;
    const at = this.now();
    if (at - session.lastSeen > IDLE_LIMIT_MS) {
      this.sessions.delete(key);
      this.save();
      return null;
    }
    if (at - session.lastSeen > TOUCH_EVERY_MS) {
      session.lastSeen = at;
      this.save();
    }
    return { username: session.username, createdAt: session.createdAt };
  }

  close(token: string): void {
    if (this.sessions.delete(digest(token))) this.save();
  }

  private save(): void {
    const at = this.now();
    for (const [key, s] of this.sessions)
      if (at - s.lastSeen > IDLE_LIMIT_MS) this.sessions.delete(key);
    const tmp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(Object.fromEntries(this.sessions)), { mode: 0o600 });
    fs.renameSync(tmp, this.file);
  }
}
