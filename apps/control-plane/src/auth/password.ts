import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** scrypt's cost; N = 2^14 takes ~30 ms here, enough to make guessing slow but sign-in quick. */
const PARAMS = { N: 16384, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

type Cost = { N: number; r: number; p: number };

/** The cost is kept with each hash, so raising PARAMS later leaves older hashes readable. */
export interface PasswordHash {
  algorithm: 'scrypt';
  salt: string;
  hash: string;
  cost?: Cost;
}

function derive(password: string, salt: Buffer, cost: Cost): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEY_LENGTH, cost, (e, key) => (e ? reject(e) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<PasswordHash> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return {
    algorithm: 'scrypt',
    salt: salt.toString('base64'),
    hash: key.toString('base64'),
    cost: { ...PARAMS },
  };
}

/** Constant-time comparison of the derived keys. */
export async function verifyPassword(password: string, stored: PasswordHash): Promise<boolean> {
  const expected = Buffer.from(stored.hash, 'base64');
  const key = await derive(password, Buffer.from(stored.salt, 'base64'), stored.cost ?? PARAMS);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A password a person can type from the file it is written to: 24 URL-safe characters. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

export const MIN_PASSWORD = 8;
export const MAX_PASSWORD = 1024;

/** Why a new password is refused, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD)
    return `the password must have at least ${MIN_PASSWORD} characters`;
  if (password.length > MAX_PASSWORD)
    return `the password must have at most ${MAX_PASSWORD} characters`;
  return null;
}
