import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CredentialName } from '@sessionboxer/domain';

/**
 * Where credentials' values live: outside the event log, which auditors read whole. The
 * embedded adapter is a 0600 JSON file in a 0700 folder of the data dir (boxes never see the
 * data dir). Not encrypted at rest: whoever can read the data dir as root can read it.
 */
export interface CredentialVault {
  get(name: CredentialName): string | null;
  set(name: CredentialName, value: string): void;
  clear(name: CredentialName): void;
  /** Every value held, for masking what agents print. */
  values(): string[];
}

export class FileCredentialVault implements CredentialVault {
  private readonly file: string;
  private data: Partial<Record<CredentialName, string>>;

  constructor(dataDir: string) {
    const dir = path.join(dataDir, 'secrets');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.chmodSync(dir, 0o700);
    this.file = path.join(dir, 'credentials.json');
    this.data = fs.existsSync(this.file)
      ? (JSON.parse(fs.readFileSync(this.file, 'utf8')) as typeof this.data)
      : {};
  }

  get(name: CredentialName): string | null {
    return this.data[name] ?? null;
  }

  set(name: CredentialName, value: string): void {
    this.write({ ...this.data, [name]: value });
  }

  clear(name: CredentialName): void {
    const next = { ...this.data };
    delete next[name];
    this.write(next);
  }

  values(): string[] {
    return Object.values(this.data).filter((v): v is string => typeof v === 'string');
  }

  /** Written to a temporary file and renamed, so a crash leaves the old file or the new one. */
  private write(next: Partial<Record<CredentialName, string>>): void {
    const tmp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(next), { mode: 0o600 });
    fs.renameSync(tmp, this.file);
    this.data = next;
  }
}
