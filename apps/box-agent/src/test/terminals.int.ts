import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeBoxDir, startDaemonProcess, waitUntil, type DaemonProcess } from './daemon-process';
import { TestGateway, type ReceivedFrame } from './test-gateway';

describe('terminals in the box daemon', () => {
  const box = makeBoxDir();
  let gateway: TestGateway;
  let daemon: DaemonProcess;
  let requests = 0;

  beforeAll(async () => {
    gateway = await TestGateway.start(box.socket);
    daemon = await startDaemonProcess(box);
    await gateway.event('hello');
  });
  afterAll(async () => {
    await daemon?.stop();
    await gateway?.close();
    box.remove();
  });

  const frameFor = (event: string, terminalId: string): Promise<ReceivedFrame> =>
    gateway.waitFor((f) => f.event === event && f.data.terminalId === terminalId);

  async function ask(event: string, data: object): Promise<any> {
    const requestId = `req-${++requests}`;
    gateway.push(event, { requestId, ...data });
    return (
      await gateway.waitFor((f) => f.event === 'terminal.answer' && f.data.requestId === requestId)
    ).data;
  }

  it('runs a command in a PTY, reports its exit and reads its output without escapes', async () => {
    const command = [
      'printf',
      '\\033]0;title\\007\\033[31mred\\033[0m\\r\\n\\033[?2004hplain\\033[?2004l\\r\\n',
    ];
    gateway.push('terminal.open', { terminalId: 'printf-1', command });
    const opened = await frameFor('terminal.opened', 'printf-1');
    expect(opened.data).toEqual({ terminalId: 'printf-1', command, createdAt: expect.any(String) });
    expect(Number.isNaN(Date.parse(opened.data.createdAt))).toBe(false);
    expect((await frameFor('terminal.exited', 'printf-1')).data).toEqual({
      terminalId: 'printf-1',
      exitCode: 0,
    });
    const answer = await ask('terminal.read', { terminalId: 'printf-1', lines: 10 });
    expect(answer).toEqual({
      requestId: expect.any(String),
      ok: true,
      result: { id: 'printf-1', text: 'red\nplain', exitCode: 0 },
    });
  });

  it("reports a command's exit code and its last lines", async () => {
    gateway.push('terminal.open', {
      terminalId: 'exit-3',
      command: ['bash', '-c', 'for i in 1 2 3 4 5; do echo line $i; done; exit 3'],
    });
    expect((await frameFor('terminal.exited', 'exit-3')).data.exitCode).toBe(3);
    const answer = await ask('terminal.read', { terminalId: 'exit-3', lines: 2 });
    expect(answer.result).toEqual({ id: 'exit-3', text: 'line 4\nline 5', exitCode: 3 });
  });

  it('re-announces a terminal opened twice instead of starting it again', async () => {
    const since = gateway.frames.length;
    gateway.push('terminal.open', { terminalId: 'exit-3', command: ['bash', '-c', 'exit 9'] });
    const again = await gateway.waitFor((f) => f.event === 'terminal.exited', since);
    expect(again.data).toEqual({ terminalId: 'exit-3', exitCode: 3 });
    const opened = gateway.frames.slice(since).filter((f) => f.event === 'terminal.opened');
    expect(opened.map((f) => f.data.command)).toEqual([
      ['bash', '-c', expect.stringMatching(/exit 3$/)],
    ]);
  });

  it('answers 127 for a command that does not exist', async () => {
    gateway.push('terminal.open', { terminalId: 'missing', command: ['no-such-command-xyz'] });
    expect((await frameFor('terminal.exited', 'missing')).data.exitCode).toBe(127);
    const answer = await ask('terminal.read', { terminalId: 'missing', lines: 5 });
    expect(answer.result.text).toMatch(/command not found: no-such-command-xyz/);
  });

  it('opens a login shell when no command is given, and lists it as running after a reconnect', async () => {
    gateway.push('terminal.open', { terminalId: 'shell', command: null });
    const opened = await frameFor('terminal.opened', 'shell');
    expect(opened.data.command).toEqual(['/bin/bash', '-l']);
    // An interactive bash prints a prompt wrapped in bracketed-paste switches.
    let text = '';
    const deadline = Date.now() + 8_000;
    while (text.trim() === '' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      text = (await ask('terminal.read', { terminalId: 'shell', lines: 5 })).result.text;
    }
    expect(text.trim()).not.toBe('');
    expect(text.includes('\x1b') || text.includes('[?2004')).toBe(false);

    const since = gateway.frames.length;
    for (const s of gateway.sockets) s.terminate();
    const hello = await gateway.event('hello', since);
    expect(hello.data.terminals).toEqual(['shell']);
  });

  it('lists its terminals, and refuses unknown ids and malformed requests', async () => {
    const list = await ask('terminal.list', {});
    expect(list.ok).toBe(true);
    const byId = Object.fromEntries(list.result.terminals.map((t: any) => [t.id, t.exitCode]));
    expect(byId).toEqual({ 'printf-1': 0, 'exit-3': 3, missing: 127, shell: null });

    const unknown = await ask('terminal.read', { terminalId: 'nope', lines: 5 });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    const malformed = await ask('terminal.read', { terminalId: 'shell', lines: 'all' });
    expect(malformed).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
  });

  it('writes typed input to the PTY and resizes it; bad frames change nothing', async () => {
    gateway.push('terminal.open', { terminalId: 'typed', command: null });
    await frameFor('terminal.opened', 'typed');
    const shows = async (pattern: RegExp) => {
      for (const deadline = Date.now() + 8_000; Date.now() < deadline;) {
        const read = await ask('terminal.read', { terminalId: 'typed', lines: 50 });
        if (pattern.test(read.result.text)) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`the terminal never showed ${pattern}`);
    };
    gateway.push('terminal.input', { terminalId: 'typed', data: 'echo typed-$((6*7))\r' });
    await shows(/typed-42/);
    gateway.push('terminal.resize', { terminalId: 'typed', cols: 9_999, rows: 20 });
    gateway.push('terminal.resize', { terminalId: 'typed', cols: 50 });
    gateway.push('terminal.input', { terminalId: 'typed', data: 42 });
    gateway.push('terminal.input', { terminalId: 'nope', data: 'ls\r' });
    gateway.push('terminal.input', { terminalId: 'typed', data: 'echo size-$(stty size)\r' });
    await shows(/size-30 120/);
    gateway.push('terminal.resize', { terminalId: 'typed', cols: 50, rows: 20 });
    gateway.push('terminal.input', { terminalId: 'typed', data: 'echo size-$(stty size)\r' });
    await shows(/size-20 50/);
    gateway.push('terminal.input', { terminalId: 'typed', data: 'exit\r' });
    await frameFor('terminal.exited', 'typed');
    // Input after the exit is dropped: the daemon still answers.
    gateway.push('terminal.input', { terminalId: 'typed', data: 'echo late\r' });
    expect((await ask('terminal.list', {})).ok).toBe(true);
  });

  it('kills its terminals on SIGTERM and exits 0', async () => {
    const pidFile = path.join(box.dir, 'sleeper.pid');
    gateway.push('terminal.open', {
      terminalId: 'sleeper',
      command: ['bash', '-c', `echo $$ > ${pidFile}; exec sleep 1000`],
    });
    await waitUntil(
      () => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').endsWith('\n'),
    );
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    expect(() => process.kill(pid, 0)).not.toThrow();

    expect(await daemon.stop()).toBe(0);
    expect(() => process.kill(pid, 0)).toThrow();
  });
});
