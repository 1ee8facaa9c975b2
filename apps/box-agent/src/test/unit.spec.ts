import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadConfig } from '../config';
import { BACKOFF_CAP_MS, backoffDelay } from '../gateway/backoff';
import { OutputRing } from '../terminals/output-ring';
import { renderLastLines, stripTerminalEscapes } from '../terminals/terminal-text';
import { DAEMON_VERSION } from '../version';
import { mergeMcpJson } from '../workspace/mcp-json';
import { writeFileAtomic } from '../workspace/safe-write';

describe('terminal text', () => {
  it('strips colours, titles, modes and bracketed paste', () => {
    const raw =
      '\x1b]0;user@box: ~\x07\x1b[?2004h\x1b[01;32muser@box\x1b[00m:~$ \x1b[200~ls\x1b[201~\x1b[?2004l\r\n' +
      '\x1b(B\x1b[mfile\x1b[K\r\n\x1bP+q\x1b\\\x1b7\x1b8';
    expect(stripTerminalEscapes(raw)).toBe('user@box:~$ ls\r\nfile\r\n');
  });

  it('renders carriage returns and backspaces as a screen would, keeping the last lines', () => {
    const raw = 'one\r\nprogress 10%\rprogress 99%\r\nab\bc\r\nlast\r\n\r\n';
    expect(renderLastLines(raw, 10)).toBe('one\nprogress 99%\nac\nlast');
    expect(renderLastLines(raw, 2)).toBe('ac\nlast');
    expect(renderLastLines('abcdef\rXY', 1)).toBe('XYcdef');
  });
});

describe('the output ring', () => {
  it('keeps only the last capacity bytes', () => {
    const ring = new OutputRing(10);
    for (let i = 0; i < 1000; i++) ring.push(String(i % 10));
    expect(ring.bytes).toBe(10);
    expect(ring.text()).toBe('0123456789');
    ring.push('x'.repeat(25));
    expect(ring.text()).toBe('x'.repeat(10));
  });

  it('never starts with half a character', () => {
    const ring = new OutputRing(5);
    ring.push('aéééé'); // 9 bytes; the cut falls inside the first é
    expect(ring.text()).toBe('éé');
  });
});

describe('reconnect backoff', () => {
  it('doubles from 50 ms up to the 2 s cap, with jitter in the upper half', () => {
    const low = (attempt: number) => backoffDelay(attempt, (min) => min);
    const high = (attempt: number) => backoffDelay(attempt, (_min, max) => max - 1);
    expect([0, 1, 2, 3].map(low)).toEqual([25, 50, 100, 200]);
    expect([0, 1, 2, 3].map(high)).toEqual([50, 100, 200, 400]);
    expect(high(50)).toBe(BACKOFF_CAP_MS);
    for (let i = 0; i < 100; i++) expect(backoffDelay(i)).toBeLessThanOrEqual(BACKOFF_CAP_MS);
  });
});

describe('config', () => {
  it('defaults to the box paths and port 7000', () => {
    expect(loadConfig({})).toMatchObject({
      gatewaySocket: '/run/sessionboxer/gateway.sock',
      gatewayPath: '/box',
      host: '127.0.0.1',
      port: 7000,
      workspace: '/workspace',
      mcpCommandRoot: '/opt/sessionboxer/dist/apps/box-agent/src/mcp',
      agentBin: '/opt/sessionboxer/node_modules/.bin',
      callWaitMs: 15_000,
      callTimeoutMs: 20_000,
    });
  });

  it('names the variable that is wrong', () => {
    expect(() => loadConfig({ SESSIONBOXER_DAEMON_PORT: 'seven' })).toThrow(
      /SESSIONBOXER_DAEMON_PORT must be an integer/,
    );
    expect(() => loadConfig({ SESSIONBOXER_GATEWAY_SOCKET: '/a:b' })).toThrow(/cannot contain/);
  });

  it('announces the version package.json has', () => {
    const pkg = JSON.parse(
      fs.readFileSync(path.resolve(__dirname, '../../../../package.json'), 'utf8'),
    );
    expect(DAEMON_VERSION).toBe(pkg.version);
  });
});

describe('.mcp.json merge', () => {
  it("keeps servers someone else added and replaces Sessionboxer's own", () => {
    const ours = { sessionboxer: { command: 'node', args: ['new.js'], env: {} } };
    const existing = {
      mcpServers: { other: { command: 'x' }, sessionboxer: { command: 'old' } },
      extra: true,
    };
    expect(mergeMcpJson(existing, ours)).toEqual({
      extra: true,
      mcpServers: { other: { command: 'x' }, sessionboxer: ours.sessionboxer },
    });
    expect(mergeMcpJson('garbage', ours)).toEqual({ mcpServers: ours });
  });
});

describe('writing inside the workspace', () => {
  let dir: string;
  let workspace: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sbx-write-'));
    workspace = path.join(dir, 'workspace');
    fs.mkdirSync(workspace);
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes 0644 whatever the umask, creating the folder', async () => {
    const old = process.umask(0o077);
    try {
      await writeFileAtomic(workspace, '.sessionboxer/session.json', '{}\n');
    } finally {
      process.umask(old);
    }
    const file = path.join(workspace, '.sessionboxer/session.json');
    expect(fs.readFileSync(file, 'utf8')).toBe('{}\n');
    expect(fs.statSync(file).mode & 0o777).toBe(0o644);
  });

  it('refuses paths that leave the workspace, and folders that are symlinks out of it', async () => {
    await expect(writeFileAtomic(workspace, '../escape.json', '{}')).rejects.toThrow(/outside/);
    await expect(writeFileAtomic(workspace, '/etc/escape.json', '{}')).rejects.toThrow(/outside/);
    const outside = path.join(dir, 'outside');
    fs.mkdirSync(outside);
    fs.symlinkSync(outside, path.join(workspace, '.sessionboxer'));
    await expect(writeFileAtomic(workspace, '.sessionboxer/session.json', '{}')).rejects.toThrow(
      /not a plain folder/,
    );
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it('replaces a symlink at the target instead of writing through it', async () => {
    const victim = path.join(dir, 'victim');
    fs.writeFileSync(victim, 'keep');
    fs.symlinkSync(victim, path.join(workspace, '.mcp.json'));
    await writeFileAtomic(workspace, '.mcp.json', '{}');
    expect(fs.readFileSync(victim, 'utf8')).toBe('keep');
    expect(fs.lstatSync(path.join(workspace, '.mcp.json')).isSymbolicLink()).toBe(false);
  });
});
