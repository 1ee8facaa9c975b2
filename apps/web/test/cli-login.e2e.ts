import { type ChildProcess, execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { waitFor } from '../../control-plane/test/box-kit';
import { checkPage, credentialsOf, fillSignIn } from './browser-kit';
import { useControlPlane } from './session-kit';

/**
 * `npm run sessionboxer -- login` end to end: the real CLI process asks for a request and
 * "opens the browser" ($BROWSER, a script that notes the address), Chromium goes there, the
 * person signs in and approves on the page (org, scopes and code shown), the CLI saves the key
 * 0600 and `sandbox list` then works with nothing but the saved file. A denied one saves none.
 */
const MAIN = path.join(__dirname, '../../../tools/cli/main.ts');
const plane = useControlPlane({ browserPerTest: true });
let home: string;

beforeAll(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'sbx-login-'));
  const browser = path.join(home, 'browser.sh');
  fs.writeFileSync(browser, `#!/bin/sh\necho "$1" > "${home}/opened"\n`, { mode: 0o755 });
});
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

/** The CLI's environment: no key, no URL, only the config dir and the browser script. */
function cliEnv(configDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, SESSIONBOXER_CONFIG_DIR: configDir };
  delete env.SESSIONBOXER_API_KEY;
  delete env.SESSIONBOXER_URL;
  env.BROWSER = path.join(home, 'browser.sh');
  return env;
}

interface Running {
  child: ChildProcess;
  out: () => string;
  exited: Promise<number | null>;
}

function login(configDir: string): Running {
  const child = spawn(
    process.execPath,
    ['-r', '@swc-node/register', MAIN, 'login', '--url', plane.api.url],
    { env: cliEnv(configDir), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, out: () => out, exited };
}

function cli(configDir: string, ...args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-r', '@swc-node/register', MAIN, ...args],
      { env: cliEnv(configDir) },
      (err, stdout) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout }),
    );
  });
}

/** The page the CLI printed (and handed to $BROWSER), and the code it showed. */
async function printed(run: Running): Promise<{ url: string; code: string }> {
  await waitFor('the CLI prints the page and the code', () =>
    /code [A-Z0-9]{4}-[A-Z0-9]{4}/.test(run.out()),
  );
  const url = /(http:\/\/\S+\/cli-login\/\S+)/.exec(run.out())![1];
  const code = /code ([A-Z0-9]{4}-[A-Z0-9]{4})/.exec(run.out())![1];
  return { url, code };
}

it('the CLI gets a key a person approves in the browser, and sandbox list uses it', async () => {
  const configDir = path.join(home, 'approve');
  const run = login(configDir);
  try {
    const { url, code } = await printed(run);
    await waitFor('$BROWSER opened', () => fs.existsSync(path.join(home, 'opened')));
    expect(fs.readFileSync(path.join(home, 'opened'), 'utf8').trim()).toBe(url);

    // Not signed in yet: the sign-in form, then the request's page at the same address.
    const { page } = await plane.browser();
    await page.goto(url);
    const { username, password } = credentialsOf(plane.api);
    await fillSignIn(page, username, password);
    const card = page.getByRole('region', { name: 'Sign in the CLI' });
    await card.getByText(code).waitFor();
    const text = (await card.textContent()) ?? '';
    expect(text).toContain(os.hostname());
    expect(text).toContain('sandboxes:read, sandboxes:write');
    expect(text).toMatch(/org .*\(\w{8}-/);
    await checkPage(page, 'cli-login');
    await card.getByRole('button', { name: 'Approve' }).click();
    await card
      .getByRole('status')
      .getByText(/Approved/)
      .waitFor();

    expect(await run.exited).toBe(0);
    expect(run.out()).toMatch(/Signed in: key sbk_\w{8}… \(sandboxes:read, sandboxes:write\)/);
    const file = path.join(configDir, 'credentials.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(configDir).mode & 0o777).toBe(0o700);
    const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(saved).toMatchObject({ url: plane.api.url, key: expect.stringMatching(/^sbk_/) });
    expect(run.out()).not.toContain(saved.key); // shown nowhere, only saved

    const list = await cli(configDir, 'sandbox', 'list', '--json');
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual({ sandboxes: [] });
    // Without the file there is no key to use.
    expect((await cli(path.join(home, 'empty'), 'sandbox', 'list')).code).toBe(1);
  } finally {
    run.child.kill('SIGKILL');
  }
});

it('a request denied on the page saves no key', async () => {
  const configDir = path.join(home, 'deny');
  const keys = async () =>
    (await plane.api.request('GET', '/api/orgs/default/api-keys')).body.apiKeys.length as number;
  const before = await keys();
  const run = login(configDir);
  try {
    const { url, code } = await printed(run);
    const page = await plane.signedIn();
    await page.goto(url);
    const card = page.getByRole('region', { name: 'Sign in the CLI' });
    await card.getByText(code).waitFor();
    await card.getByRole('button', { name: 'Deny' }).click();
    await card
      .getByRole('status')
      .getByText(/Denied/)
      .waitFor();
    expect(await run.exited).toBe(1);
    expect(run.out()).toMatch(/denied on the page; no key was made/);
    expect(fs.existsSync(path.join(configDir, 'credentials.json'))).toBe(false);
    expect(await keys()).toBe(before);
  } finally {
    run.child.kill('SIGKILL');
  }
});
