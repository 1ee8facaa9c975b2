import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

interface Sealed {
  iv: string;
  tag: string;
  data: string;
}

/**
 * File keys' private halves, encrypted at rest with AES-256-GCM (the key id is the additional
 * data, so a sealed key moved to another id does not open). The vault key is 32 random bytes
 * in `<data>/secrets/ssh-vault.key` (0600, made at first use), the sealed keys in
 * `ssh-keys.json` beside it: a copy of the key file alone, a backup or a leaked
 * `ssh-keys.json` holds no usable key. Whoever reads both as root can decrypt; see TERMINALS.md.
 */
export class SshKeyVault {
  private readonly file: string;
  private readonly key: Buffer;
  private sealed: Record<string, Sealed>;

  constructor(dataDir: string) {
    const dir = path.join(dataDir, 'secrets');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const keyFile = path.join(dir, 'ssh-vault.key');
    if (!fs.existsSync(keyFile))
      fs.writeFileSync(keyFile, randomBytes(32), { mode: 0o600, flag: 'wx' });
    this.key = fs.readFileSync(keyFile);
    if (this.key.length !== 32) throw new Error(`${keyFile} must hold 32 bytes`);
    this.file = path.join(dir, 'ssh-keys.json');
    this.sealed = fs.existsSync(this.file)
      ? (JSON.parse(fs.readFileSync(this.file, 'utf8')) as Record<string, Sealed>)
      : {};
  }

  put(keyId: string, privateKey: string): void {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(keyId));
    const data = Buffer.concat([cipher.update(privateKey, 'utf8'), cipher.final()]);
    const entry = {
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      data: data.toString('base64'),
    };
    this.write({ ...this.sealed, [keyId]: entry });
  }

  /** The private key, for the SSH handshake only: never in an answer, event or log. */
  get(keyId: string): string | null {
    const entry = Object.hasOwn(this.sealed, keyId) ? this.sealed[keyId] : null;
    if (entry === null) return null;
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(entry.iv, 'base64'));
    decipher.setAAD(Buffer.from(keyId));
    decipher.setAuthTag(Buffer.from(entry.tag, 'base64'));
    return Buffer.concat([
      decipher.update(Buffer.from(entry.data, 'base64')),
      decipher.final(),
    ]).toString('utf8');
  }

  remove(keyId: string): void {
    const next = { ...this.sealed };
    delete next[keyId];
    this.write(next);
  }

  private write(next: Record<string, Sealed>): void {
    const tmp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(next), { mode: 0o600 });
    fs.renameSync(tmp, this.file);
    this.sealed = next;
  }
}
