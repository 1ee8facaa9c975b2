/**
 * The installation's signing key: an ed25519 private key in a PEM file (mode 0600) kept
 * outside the event store, created at first start, with its public key beside it
 * (`<file>.pub`, exportable: it is all an auditor needs).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
} from 'node:crypto';

export interface AuditKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
}

export function publicKeyPath(keyFile: string): string {
  return `${keyFile}.pub`;
}

/** Reads the key at `keyFile`, creating it (0600) and its `.pub` when missing. */
export function loadOrCreateAuditKey(keyFile: string): AuditKey {
  if (!fs.existsSync(keyFile)) {
    fs.mkdirSync(path.dirname(keyFile), { recursive: true, mode: 0o700 });
    const { privateKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' });
    try {
      // 'wx': two processes starting at once cannot overwrite each other's key.
      fs.writeFileSync(keyFile, pem, { mode: 0o600, flag: 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  const mode = fs.statSync(keyFile).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    throw new Error(`the audit key ${keyFile} is readable by others (mode ${mode.toString(8)})`);
  }
  const privateKey = createPrivateKey(fs.readFileSync(keyFile));
  if (privateKey.asymmetricKeyType !== 'ed25519') {
    throw new Error(`the audit key ${keyFile} is not an ed25519 key`);
  }
  const publicKey = createPublicKey(privateKey);
  const pub = publicKeyPath(keyFile);
  const pubPem = publicKey.export({ type: 'spki', format: 'pem' });
  if (!fs.existsSync(pub) || fs.readFileSync(pub, 'utf8') !== pubPem) {
    fs.writeFileSync(pub, pubPem, { mode: 0o644 });
  }
  return { privateKey, publicKey };
}

/** An ed25519 public key from a PEM file holding the public key (or the private one). */
export function readPublicKey(file: string): KeyObject {
  const pem = fs.readFileSync(file, 'utf8');
  const key = pem.includes('PRIVATE KEY')
    ? createPublicKey(createPrivateKey(pem))
    : createPublicKey(pem);
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`${file} is not an ed25519 key`);
  return key;
}

/**
 * Where the key lives unless SESSIONBOXER_AUDIT_KEY says otherwise: beside the data dir, not
 * in it (`<dataDir>.audit-key`), so a copy of the data dir does not carry the key with it.
 */
export function auditKeyPath(dataDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const set = env.SESSIONBOXER_AUDIT_KEY?.trim();
  return path.resolve(set ? set : `${path.resolve(dataDir)}.audit-key`);
}
