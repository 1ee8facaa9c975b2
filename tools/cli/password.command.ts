import { AccountStore, USERNAME } from '../../apps/control-plane/src/auth/account-store';

/** Piped in: the first line of stdin, so the password never shows in `ps` or a history. */
async function readPiped(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
}

/** At a terminal: one line, not echoed (backspace edits, Ctrl-C cancels). */
function askHidden(prompt: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(prompt);
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.resume();
  return new Promise((resolve, reject) => {
    let text = '';
    const finish = (): void => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
    };
    const onData = (chunk: string): void => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return (finish(), resolve(text));
        if (ch === '\u0003') return (finish(), reject(new Error('cancelled')));
        text = ch === '\u007f' || ch === '\b' ? text.slice(0, -1) : text + ch;
      }
    };
    stdin.on('data', onData);
  });
}

async function readPassword(username: string): Promise<string> {
  if (!process.stdin.isTTY) return readPiped();
  const first = await askHidden(`new password for ${username}: `);
  const again = await askHidden('the same again: ');
  if (first !== again) throw new Error('the two passwords differ; nothing changed');
  return first;
}

/**
 * `sessionboxer password`: sets the local account's password in the data folder. A running
 * control plane takes it at the next sign-in and ends every sign-in made before it.
 */
export async function passwordCommand(dataDir: string, user: string | undefined): Promise<string> {
  const store = new AccountStore(dataDir);
  const username = user ?? store.read()?.username ?? process.env.SESSIONBOXER_ADMIN_USER ?? 'admin';
  if (!USERNAME.test(username)) throw new Error(`not a user name: ${JSON.stringify(username)}`);
  const password = await readPassword(username);
  await store.setPassword(username, password);
  return `password set for ${username}; earlier sign-ins have ended`;
}
