import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SecretStore } from './sealed-secrets';

interface Kept {
  value: string;
  /** When it was stored (ms): a value set but not yet referenced is not swept for a while. */
  at: number;
}

/** How long an unreferenced value is kept: its change may still be on its way to the log. */
const GRACE_MS = 10 * 60 * 1000;

/**
 * Settings' secrets on the embedded default: a 0600 JSON file in the data dir's 0700
 * `secrets` folder, beside the agents' credentials (boxes never see the data dir). Written to
 * a temporary file and renamed, so a crash leaves the old file or the new one. Read again on
 * every get when the file changed (a stat otherwise), so instances sharing the data dir see each
 * other's changes.
 */
export class FileSecretStore implements SecretStore {
  private readonly file: string;
  /** The file as last parsed, and the stat it had then (settings are read on every request). */
  private cached: { stamp: string; data: Record<string, Kept> } | null = null;

  constructor(
    dataDir: string,
    private readonly now: () => number = Date.now,
  ) {
    const dir = path.join(dataDir, 'secrets');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.chmodSync(dir, 0o700);
    this.file = path.join(dir, 'settings-secrets.json');
  }

  get(id: string): string | null {
    return this.read()[id]?.value ?? null;
  }

  set(id: string, value: string): void {
    this.write({ ...this.read(), [id]: { value, at: this.now() } });
  }

  retain(ids: ReadonlySet<string>): void {
    const data = this.read();
    const old = this.now() - GRACE_MS;
    const kept = Object.entries(data).filter(([id, k]) => ids.has(id) || k.at > old);
    if (kept.length !== Object.keys(data).length) this.write(Object.fromEntries(kept));
  }

  private read(): Record<string, Kept> {
    try {
      const st = fs.statSync(this.file);
      const stamp = `${st.ino}:${st.size}:${st.mtimeMs}`;
      if (this.cached?.stamp === stamp) return this.cached.data;
      const data = JSON.parse(fs.readFileSync(this.file, 'utf8')) as Record<string, Kept>;
      this.cached = { stamp, data };
      return data;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw e;
    }
  }

  private write(next: Record<string, Kept>): void {
    const tmp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(next), { mode: 0o600 });
    fs.renameSync(tmp, this.file);
  }
}
