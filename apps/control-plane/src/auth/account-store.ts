import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  generatePassword,
  hashPassword,
  passwordProblem,
  verifyPassword,
  type PasswordHash,
} from './password';

/** The one local account: its name and the scrypt hash of its password, never the password. */
export interface Account {
  username: string;
  password: PasswordHash;
  updatedAt: string;
}

export const USERNAME = /^[a-z0-9][a-z0-9._-]{0,63}$/i;

export function secretsDir(dataDir: string): string {
  const dir = path.join(dataDir, 'secrets');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  return dir;
}

function writePrivate(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/**
 * The account file (`<data>/secrets/account.json`, 0600). The control plane and the CLI's
 * `password` command both use it, so a password set from the command line applies at the next
 * sign-in without a restart.
 */
export class AccountStore {
  readonly file: string;
  readonly initialPasswordFile: string;

  constructor(dataDir: string) {
    const dir = secretsDir(dataDir);
    this.file = path.join(dir, 'account.json');
    this.initialPasswordFile = path.join(dir, 'initial-password');
  }

  private cached: { mtimeMs: number; account: Account } | null = null;

  /** Read again only when the file changed (the CLI may have set a new password). */
  read(): Account | null {
    let mtimeMs: number;
    try {
      mtimeMs = fs.statSync(this.file).mtimeMs;
    } catch {
      return null;
    }
    if (this.cached?.mtimeMs !== mtimeMs)
      this.cached = { mtimeMs, account: JSON.parse(fs.readFileSync(this.file, 'utf8')) as Account };
    return this.cached.account;
  }

  /** Sets (or creates the account with) this password; throws when it is unacceptable. */
  async setPassword(username: string, password: string): Promise<Account> {
    if (!USERNAME.test(username))
      throw new Error(
        `the user name must be 1–64 letters, digits, dots, dashes or underscores, got ${JSON.stringify(username)}`,
      );
    const problem = passwordProblem(password);
    if (problem) throw new Error(problem);
    const account: Account = {
      username,
      password: await hashPassword(password),
      updatedAt: new Date().toISOString(),
    };
    writePrivate(this.file, JSON.stringify(account));
    // A password chosen by a person replaces the generated one: the file would only mislead.
    fs.rmSync(this.initialPasswordFile, { force: true });
    return account;
  }

  /**
   * At start: the environment's password wins (applied each start that sets it); otherwise an
   * existing account stays; otherwise a generated password is written for the operator to read.
   */
  async ensure(
    username: string,
    password: string | null,
  ): Promise<{ account: Account; generated: boolean }> {
    const current = this.read();
    if (password !== null) {
      const same =
        current?.username === username && (await verifyPassword(password, current.password));
      return {
        account: same ? current : await this.setPassword(username, password),
        generated: false,
      };
    }
    if (current) return { account: current, generated: false };
    const made = generatePassword();
    const account = await this.setPassword(username, made);
    writePrivate(this.initialPasswordFile, `${made}\n`);
    return { account, generated: true };
  }

  async check(username: string, password: string): Promise<boolean> {
    const account = this.read();
    // The hash is checked whatever the name, so timing does not tell a wrong name apart.
    const ok = account ? await verifyPassword(password, account.password) : false;
    return ok && account?.username === username;
  }
}
