import { spawn } from 'node:child_process';
import * as os from 'node:os';
import { parseArgs } from 'node:util';
import { saveCredentials } from './credentials';

/**
 * `sessionboxer login`, the way `div login` works: the control plane gives a code and a page;
 * a signed-in person approves it there (the org and the scopes sandboxes:read and
 * sandboxes:write are shown with the code to compare); the CLI polls and saves the new key
 * (credentials.ts). The browser is opened when $BROWSER or xdg-open is there.
 */
export const LOGIN_USAGE = `  login    get an API key (sandboxes:read + sandboxes:write) through the browser: a person
           signed in to the web UI approves it; saved to $SESSIONBOXER_CONFIG_DIR/credentials.json
           (default ~/.config/sessionboxer), which sandbox, env and agent then use
           --url URL       the control plane (default $SESSIONBOXER_URL or http://127.0.0.1:8080)
           --org ID        the org the key is for (default: the installation's default org)
           --no-browser    only print the page's address`;

interface Started {
  request_id: string;
  poll_token: string;
  user_code: string;
  verification_url: string;
  expires_at: string;
  interval_seconds: number;
}

type Poll =
  | { status: 'pending' | 'denied' | 'expired' }
  | { status: 'approved'; key: string; key_id: string; org_id: string; scopes: string[] };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function postJson<T>(url: string, body: unknown): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: { message?: unknown } | null = null;
  try {
    parsed = JSON.parse(text) as { message?: unknown };
  } catch {
    parsed = null;
  }
  const message = typeof parsed?.message === 'string' ? parsed.message : text;
  if (!res.ok) throw new Error(`${url}: ${res.status} ${message}`);
  return parsed as T;
}

/** $BROWSER (its first word is the program, as most tools read it) or xdg-open; never waited for. */
function openBrowser(url: string): void {
  const browser = process.env.BROWSER?.trim();
  const argv = browser ? [...browser.split(/\s+/), url] : ['xdg-open', url];
  try {
    const child = spawn(argv[0], argv.slice(1), { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // no browser here: the address printed is enough
  }
}

export async function loginCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      url: { type: 'string' },
      org: { type: 'string' },
      'no-browser': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(`usage: sessionboxer login [--url URL] [--org ID] [--no-browser]\n${LOGIN_USAGE}`);
    return 0;
  }
  const base = (values.url ?? process.env.SESSIONBOXER_URL ?? 'http://127.0.0.1:8080').replace(
    /\/+$/,
    '',
  );
  const started = await postJson<Started>(`${base}/api/cli-login`, {
    client: os.hostname(),
    ...(values.org ? { org: values.org } : {}),
  });
  console.log(
    `To sign this CLI in, open this page and approve the request:\n\n  ${started.verification_url}\n`,
  );
  console.log(`Check that the page shows the code ${started.user_code}.`);
  if (!values['no-browser']) openBrowser(started.verification_url);
  const deadline = Date.parse(started.expires_at);
  const every = Math.max(1, started.interval_seconds) * 1000;
  while (Date.now() < deadline + every) {
    const poll = await postJson<Poll>(`${base}/api/cli-login/poll`, {
      poll_token: started.poll_token,
    });
    if (poll.status === 'approved') {
      const file = saveCredentials({
        url: base,
        key: poll.key,
        key_id: poll.key_id,
        org_id: poll.org_id,
        scopes: poll.scopes,
        saved_at: new Date().toISOString(),
      });
      console.log(
        `Signed in: key ${poll.key.slice(0, 12)}… (${poll.scopes.join(', ')}) saved to ${file}`,
      );
      return 0;
    }
    if (poll.status === 'denied') {
      console.error('sessionboxer login: the request was denied on the page; no key was made');
      return 1;
    }
    if (poll.status === 'expired') break;
    await sleep(every);
  }
  console.error('sessionboxer login: the request expired before anyone approved it; run it again');
  return 1;
}
