import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TEST_PASSWORD, signIn, tempDataDir } from './harness';

const root = path.resolve(__dirname, '../../..');
const main = path.join(root, 'apps/control-plane/src/main.ts');

interface Proc {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** The built entry point `npm start` runs, read from package.json (jest's setup builds dist/). */
function startScriptEntry(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const entry = /node (\S+\.js)/.exec(pkg.scripts.start)?.[1];
  if (!entry) throw new Error(`no node entry in npm start: ${pkg.scripts.start}`);
  return path.join(root, entry);
}

function run(env: Record<string, string>, argv = ['-r', '@swc-node/register', main]): Proc {
  const child = spawn(process.execPath, argv, {
    cwd: root,
    env: {
      ...process.env,
      EVENTSTORE_URL: '',
      SESSIONBOXER_AUDIT_KEY: path.join(env.SESSIONBOXER_DATA_DIR ?? root, 'audit-key'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

async function waitFor(proc: Proc, pattern: RegExp, ms = 20000): Promise<RegExpMatchArray> {
  const until = process.hrtime.bigint() + BigInt(ms) * 1_000_000n;
  for (;;) {
    const m = proc.output().match(pattern);
    if (m) return m;
    if (proc.child.exitCode !== null) throw new Error(`exited early:\n${proc.output()}`);
    if (process.hrtime.bigint() > until)
      throw new Error(`no ${String(pattern)} in:\n${proc.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the control plane process (what `npm start` runs)', () => {
  let dataDir: string;
  let proc: Proc | null = null;
  beforeEach(() => (dataDir = tempDataDir()));
  afterEach(() => {
    if (proc && proc.child.exitCode === null) proc.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts on the embedded default from its environment, serves, and stops cleanly on SIGTERM', async () => {
    proc = run({
      SESSIONBOXER_PORT: '0',
      SESSIONBOXER_DATA_DIR: dataDir,
      SESSIONBOXER_BOXES: 'off',
      SESSIONBOXER_ADMIN_PASSWORD: TEST_PASSWORD,
    });
    const [, url] = await waitFor(proc, /control plane on (http:\/\/\S+) /);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await (await fetch(`${url}/api/health`)).json()).toEqual({ status: 'ok' });
    const token = await signIn(url, 'admin', TEST_PASSWORD);
    const ready = await fetch(`${url}/api/health/ready`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(((await ready.json()) as { eventStore: string }).eventStore).toBe('sqlite');
    const created = await fetch(`${url}/api/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ title: 'From the process' }),
    });
    expect(created.status).toBe(201);
    expect(fs.existsSync(path.join(dataDir, 'events.sqlite'))).toBe(true);
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
    expect(proc.output()).toContain('stores closed');
  });

  it('runs from the build exactly as `npm start` names it', async () => {
    const entry = startScriptEntry();
    expect(fs.existsSync(entry)).toBe(true);
    proc = run(
      { SESSIONBOXER_PORT: '0', SESSIONBOXER_DATA_DIR: dataDir, SESSIONBOXER_BOXES: 'off' },
      [entry],
    );
    const [, url] = await waitFor(proc, /control plane on (http:\/\/\S+) /);
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
  });

  it('refuses a bad port with a message that says why, and exits 1', async () => {
    proc = run({
      SESSIONBOXER_PORT: 'eighty',
      SESSIONBOXER_DATA_DIR: dataDir,
      SESSIONBOXER_BOXES: 'off',
    });
    expect(await proc.exited).toBe(1);
    expect(proc.output()).toContain(
      'SESSIONBOXER_PORT must be an integer from 0 to 65535, got "eighty"',
    );
  });
});
