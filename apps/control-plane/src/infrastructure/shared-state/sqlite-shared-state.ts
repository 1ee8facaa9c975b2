import Database from 'better-sqlite3';
import type { SharedState } from './shared-state.port';

interface Row {
  value: string;
  expires: number | null;
}

/**
 * SharedState in a SQLite file: the processes of one host that share a data dir see the same
 * keys (WAL, each change in an immediate transaction, so a claim is decided by one writer).
 * Expired rows read as absent and are swept on writes now and then.
 */
export class SqliteSharedState implements SharedState {
  private readonly db: Database.Database;
  private readonly readStmt: Database.Statement<[string], Row>;
  private writes = 0;

  constructor(
    file: string,
    private readonly now: () => number = Date.now,
  ) {
    this.db = new Database(file, { timeout: 10_000 });
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(
      'CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires INTEGER)',
    );
    this.readStmt = this.db.prepare<[string], Row>('SELECT value, expires FROM kv WHERE key = ?');
  }

  get(key: string): Promise<string | null> {
    return Promise.resolve(this.live(key)?.value ?? null);
  }

  set(key: string, value: string, ttlMs?: number): Promise<void> {
    this.write(() => this.put(key, value, ttlMs));
    return Promise.resolve();
  }

  claim(key: string, value: string, ttlMs: number): Promise<boolean> {
    return Promise.resolve(
      this.write(() => {
        if (this.live(key)) return false;
        this.put(key, value, ttlMs);
        return true;
      }),
    );
  }

  renew(key: string, value: string, ttlMs: number): Promise<boolean> {
    return Promise.resolve(
      this.write(() => {
        if (this.live(key)?.value !== value) return false;
        this.put(key, value, ttlMs);
        return true;
      }),
    );
  }

  release(key: string, value: string): Promise<boolean> {
    return Promise.resolve(
      this.write(() => {
        if (this.live(key)?.value !== value) return false;
        this.db.prepare('DELETE FROM kv WHERE key = ?').run(key);
        return true;
      }),
    );
  }

  delete(key: string): Promise<void> {
    this.write(() => this.db.prepare('DELETE FROM kv WHERE key = ?').run(key));
    return Promise.resolve();
  }

  increment(key: string, ttlMs: number): Promise<number> {
    return Promise.resolve(
      this.write(() => {
        const row = this.live(key);
        if (!row) {
          this.put(key, '1', ttlMs);
          return 1;
        }
        const next = Number(row.value) + 1;
        this.db.prepare('UPDATE kv SET value = ? WHERE key = ?').run(String(next), key);
        return next;
      }),
    );
  }

  scan(prefix: string): Promise<Map<string, string>> {
    const rows = this.db
      .prepare<[string, string, number], { key: string; value: string }>(
        'SELECT key, value FROM kv WHERE key >= ? AND key < ? AND (expires IS NULL OR expires > ?)',
      )
      .all(prefix, `${prefix}\uffff`, this.now());
    return Promise.resolve(new Map(rows.map((r) => [r.key, r.value])));
  }

  close(): Promise<void> {
    if (this.db.open) this.db.close();
    return Promise.resolve();
  }

  private live(key: string): Row | undefined {
    const row = this.readStmt.get(key);
    return row && (row.expires === null || row.expires > this.now()) ? row : undefined;
  }

  private put(key: string, value: string, ttlMs?: number): void {
    const expires = ttlMs === undefined ? null : this.now() + ttlMs;
    this.db
      .prepare('INSERT OR REPLACE INTO kv (key, value, expires) VALUES (?, ?, ?)')
      .run(key, value, expires);
  }

  private write<T>(change: () => T): T {
    const result = this.db.transaction(change).immediate();
    if (++this.writes % 500 === 0) {
      this.db.prepare('DELETE FROM kv WHERE expires IS NOT NULL AND expires <= ?').run(this.now());
    }
    return result;
  }
}
