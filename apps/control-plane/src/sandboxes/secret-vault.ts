import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

interface Sealed {
  iv: string;
  tag: string;
  data: string;
}

/**
 * Where sandbox secrets' values live: beside the credential vault in the data dir's 0700
 * `secrets` folder, but sealed with AES-256-GCM under a 0600 key file of its own, so the
 * vault file alone (a backup, a copy) reveals nothing. Never in an event, a read model, a
 * log or an answer: the domain records names and products only.
 */
export class SandboxSecretVault {
  private readonly file: string;
  private readonly key: Buffer;
  private data: Record<string, Sealed>;

  constructor(dataDir: string) {
    const dir = path.join(dataDir, 'secrets');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.chmodSync(dir, 0o700);
    const keyFile = path.join(dir, 'sandbox-secrets.key');
    if (!fs.existsSync(keyFile))
      fs.writeFileSync(keyFile, randomBytes(32), { mode: 0o600, flag: 'wx' });
    this.key = fs.readFileSync(keyFile);
    this.file = path.join(dir, 'sandbox-secrets.json');
    this.data = fs.existsSync(this.file)
      ? (JSON.parse(fs.readFileSync(this.file, 'utf8')) as Record<string, Sealed>)
      : {};
  }

  set(orgId: string, environment: string, name: string, value: string): void {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(slot(orgId, environment, name)));
    const data = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    const sealed = {
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      data: data.toString('base64'),
    };
    this.write({ ...this.data, [slot(orgId, environment, name)]: sealed });
  }

  get(orgId: string, environment: string, name: string): string | null {
    const sealed = this.data[slot(orgId, environment, name)];
    if (sealed === undefined) return null;
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(sealed.iv, 'base64'));
    decipher.setAAD(Buffer.from(slot(orgId, environment, name)));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    return Buffer.concat([
      decipher.update(Buffer.from(sealed.data, 'base64')),
      decipher.final(),
    ]).toString('utf8');
  }

  delete(orgId: string, environment: string, name: string): void {
    const next = { ...this.data };
    delete next[slot(orgId, environment, name)];
    this.write(next);
  }

  /** Written to a temporary file and renamed, so a crash leaves the old file or the new one. */
  private write(next: Record<string, Sealed>): void {
    const tmp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(next), { mode: 0o600 });
    fs.renameSync(tmp, this.file);
    this.data = next;
  }
}

const slot = (orgId: string, environment: string, name: string) =>
  `${orgId}/${environment}/${name}`;
