import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { ErrorCode } from '@sessionboxer/domain/kernel/errors';
import { type Kit, delay, hostPidsWith, openKit, runIn, sh, until } from './box-test-kit';

/** The daemon stand-in: answers `box <session id>` on the box's own 127.0.0.1:7000. */
const DAEMON = [
  '/usr/bin/node',
  '-e',
  `require('fs').writeFileSync('/tmp/main-was-here', 'yes');
   require('http').createServer((q, s) => s.end('box ' + process.env.SESSIONBOXER_SESSION_ID))
     .listen(7000, '127.0.0.1');`,
];

/** A client that retries until the daemon listens (create resolves before it does). */
const CLIENT = `
const get = (n) => require('http').get('http://127.0.0.1:7000', (r) => {
  let b = ''; r.on('data', (d) => (b += d)); r.on('end', () => console.log(b));
}).on('error', (e) => (n > 0 ? setTimeout(() => get(n - 1), 20) : console.log(e.code)));
get(100);`;

describe('exec into a bubblewrap box', () => {
  let kit: Kit;

  beforeAll(async () => {
    kit = await openKit({ isolation: 'bubblewrap' });
  });
  afterAll(() => kit.close());

  it('reaches a server started inside the box on 127.0.0.1:7000; two boxes each have their own', async () => {
    const [a, b] = [kit.spec(DAEMON), kit.spec(DAEMON)];
    await Promise.all([kit.driver.create(a), kit.driver.create(b)]);
    const [ra, rb] = await Promise.all([
      runIn(kit.driver, a.sessionId, ['/usr/bin/node', '-e', CLIENT]),
      runIn(kit.driver, b.sessionId, ['/usr/bin/node', '-e', CLIENT]),
    ]);
    expect(ra.stdout).toBe(`box ${a.sessionId}\n`);
    expect(rb.stdout).toBe(`box ${b.sessionId}\n`);
  });

  it("shares the box's mounts, /tmp included, and takes env and cwd", async () => {
    const s = kit.spec(DAEMON);
    await kit.driver.create(s);
    await sh(kit.driver, s.sessionId, 'mkdir -p /workspace/sub');
    const r = await runIn(
      kit.driver,
      s.sessionId,
      ['/bin/sh', '-c', 'until [ -e /tmp/main-was-here ]; do sleep 0.01; done; pwd; echo "$EXTRA"'],
      { env: { EXTRA: 'x; $(y) "z"' }, cwd: '/workspace/sub' },
    );
    expect(r).toEqual({ code: 0, stdout: '/workspace/sub\nx; $(y) "z"\n', stderr: '' });
  });

  it('passes stdin and stdout through pipes and reports the exit code', async () => {
    const s = kit.spec(['/usr/bin/sleep', 'infinity']);
    await kit.driver.create(s);
    const r = await runIn(kit.driver, s.sessionId, ['/bin/sh', '-c', 'tr a-z A-Z; exit 7'], {
      input: 'hello box\n',
    });
    expect(r).toEqual({ code: 7, stdout: 'HELLO BOX\n', stderr: '' });
  });

  it('killing the exec child kills the process inside the box', async () => {
    const s = kit.spec(['/usr/bin/sleep', 'infinity']);
    await kit.driver.create(s);
    const marker = `sbx-exec-${Math.floor(Math.random() * 1e9)}`;
    const script = 'touch /workspace/started; sleep 1000';
    const child = kit.driver.exec(s.sessionId, ['/bin/sh', '-c', script, marker]);
    // Killed while nsenter/setpriv still set up (first ms), the process could outlive the kill
    // (it would still die with the box): wait until it runs.
    await until(() => existsSync(path.join(s.workspaceDir, 'started')));
    child.kill();
    await until(() => hostPidsWith(marker).length === 0, 3000);
  });

  it('refuses bad input and unknown boxes before running anything', async () => {
    const s = kit.spec(['/usr/bin/sleep', 'infinity']);
    await kit.driver.create(s);
    expect(() => kit.driver.exec('not-a-uuid', ['/bin/true'])).toThrow(
      expect.objectContaining({ code: ErrorCode.ValidationFailed }),
    );
    expect(() => kit.driver.exec(kit.spec([]).sessionId, ['/bin/true'])).toThrow(
      expect.objectContaining({ code: ErrorCode.NotFound }),
    );
    expect(() => kit.driver.exec(s.sessionId, [])).toThrow(/argv/);
    expect(() => kit.driver.exec(s.sessionId, ['/bin/true'], { cwd: 'rel' })).toThrow(/cwd/);
    expect(() => kit.driver.exec(s.sessionId, ['/bin/true'], { env: { 'A=B': 'x' } })).toThrow(
      /variable name/,
    );
  });

  it('reports a main process that ends by itself, and not one that destroy ends', async () => {
    const exits: [string, number | null][] = [];
    kit.driver.onExit((id, code) => exits.push([id, code]));
    const dying = kit.spec(['/bin/sh', '-c', 'sleep 0.1; exit 3']);
    const destroyed = kit.spec(['/usr/bin/sleep', 'infinity']);
    await kit.driver.create(dying);
    await kit.driver.create(destroyed);
    await kit.driver.destroy(destroyed.sessionId);
    await until(() => exits.length > 0);
    await delay(50);
    expect(exits).toEqual([[dying.sessionId, 3]]);
    expect(kit.driver.info(dying.sessionId)?.status).toBe('exited');
    // The session can get a new box under the same id.
    await kit.driver.create({ ...dying, command: ['/usr/bin/sleep', 'infinity'] });
    expect(kit.driver.info(dying.sessionId)?.status).toBe('running');
  });
});
