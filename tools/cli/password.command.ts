import { AccountStore, USERNAME } from '../../apps/control-plane/src/auth/account-store';

/** Reads the new password from stdin (its first line), so it never shows in `ps` or a history. */
async function readPassword(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
}

/**
 * `sessionboxer password`: sets the local account's password in the data folder. A running
 * control plane takes it at the next sign-in and ends every sign-in made before it.
 */
export async function passwordCommand(dataDir: string, user: string | undefined): Promise<string> {
  const store = new AccountStore(dataDir);
  const username = user ?? store.read()?.username ?? process.env.SESSIONBOXER_ADMIN_USER ?? 'admin';
  if (!USERNAME.test(username)) throw new Error(`not a user name: ${JSON.stringify(username)}`);
  if (process.stdin.isTTY) process.stderr.write(`new password for ${username}: `);
  const password = await readPassword();
  await store.setPassword(username, password);
  return `password set for ${username}; earlier sign-ins have ended`;
}
