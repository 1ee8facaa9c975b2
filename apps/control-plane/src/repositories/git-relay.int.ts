import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import { startGitHttpDouble, type GitHttpDouble } from '../../test/doubles/git-http-server';
import { gitRelay } from './git-relay';
import { forgeAuthorization } from './host-git';

const TOKEN = 'ghp_relaytesttoken0123456789';
const BRANCH = 'sessionboxer/abcd1234';
const ENV = {
  PATH: '/usr/bin:/bin',
  HOME: '/nonexistent',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
};

class GitFailed extends Error {
  constructor(readonly stderr: string) {
    super(stderr);
  }
}

/** The relay as the edge runs it, over plain HTTP: `/git/<sub>` for session s1. */
describe('the git relay (smart HTTP to the forge, token added, own branch only)', () => {
  let forge: GitHttpDouble;
  let relay: http.Server;
  let relayUrl: string;
  let work: string;
  // Async: the forge double answers in this same process, so a sync git would wait for ever.
  const git = (cwd: string, ...args: string[]) =>
    new Promise<string>((resolve, reject) => {
      const argv = ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args];
      execFile('git', argv, { cwd, env: ENV }, (e, stdout, stderr) =>
        e ? reject(new GitFailed(stderr)) : resolve(stdout),
      );
    });
  const gitFails = async (cwd: string, ...args: string[]): Promise<string> => {
    try {
      await git(cwd, ...args);
    } catch (e) {
      return String((e as { stderr?: string }).stderr);
    }
    throw new Error(`git ${args.join(' ')} succeeded`);
  };

  beforeAll(async () => {
    forge = await startGitHttpDouble({ expectedAuthorization: forgeAuthorization(TOKEN) });
    forge.createRepo('app', { 'README.md': '# app\n' });
    const handler = gitRelay({
      sessionRepo: (sessionId, name) => {
        if (sessionId !== 's1' || name !== 'app')
          throw new DomainError(ErrorCode.Forbidden, `this session has no repository ${name}`);
        return { name, cloneUrl: forge.repoUrl('app'), defaultBranch: 'main', branch: BRANCH };
      },
      token: () => Promise.resolve(TOKEN),
    });
    relay = http.createServer((req, res) => {
      void handler(req, res, { sessionId: 's1' }, (req.url ?? '/').slice('/git'.length) || '/');
    });
    await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
    relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-relay-'));
  });
  afterAll(async () => {
    relay?.closeAllConnections();
    await new Promise((r) => relay?.close(r));
    await forge?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('the forge double refuses a request without the token', async () => {
    expect(await gitFails(work, 'ls-remote', forge.repoUrl('app'))).toMatch(
      /Authentication failed|401|could not read/,
    );
  });

  it('clones through the relay, which adds the token to every request', async () => {
    forge.authorizations.length = 0;
    await git(work, 'clone', '-q', `${relayUrl}/git/app`, 'app');
    expect(fs.readFileSync(path.join(work, 'app/README.md'), 'utf8')).toBe('# app\n');
    expect(forge.authorizations.length).toBeGreaterThan(0);
    expect(forge.authorizations.every((a) => a === forgeAuthorization(TOKEN))).toBe(true);
  });

  it("pushes the session's own branch to the forge", async () => {
    const clone = path.join(work, 'app');
    await git(clone, 'checkout', '-q', '-b', BRANCH);
    fs.writeFileSync(path.join(clone, 'change.txt'), 'work\n');
    await git(clone, 'add', '-A');
    await git(clone, 'commit', '-qm', 'work');
    await git(clone, 'push', '-q', 'origin', BRANCH);
    expect(forge.git('app', 'rev-parse', BRANCH)).toBe(
      (await git(clone, 'rev-parse', 'HEAD')).trim(),
    );
  });

  it('refuses a push to main or another branch, saying why, and the forge keeps its main', async () => {
    const clone = path.join(work, 'app');
    const main = forge.git('app', 'rev-parse', 'main');
    const toMain = await gitFails(clone, 'push', 'origin', `HEAD:main`);
    expect(toMain).toMatch(/\[remote rejected\] HEAD -> main \(main is the default branch/);
    expect(toMain).toContain(`may push only its own branch ${BRANCH}`);
    const other = await gitFails(clone, 'push', 'origin', 'HEAD:refs/heads/sessionboxer/ffff0000');
    expect(other).toMatch(/remote rejected.*this session pushes only to sessionboxer\/abcd1234/);
    expect(forge.git('app', 'rev-parse', 'main')).toBe(main);
    expect(() =>
      forge.git('app', 'rev-parse', '--verify', '-q', 'sessionboxer/ffff0000'),
    ).toThrow();
  });

  it("refuses a repository the session does not have, and requests that are not git's", async () => {
    const ask = async (route: string, init: RequestInit = {}) => {
      const res = await fetch(relayUrl + route, init);
      return { status: res.status, text: await res.text() };
    };
    expect(await ask('/git/other/info/refs?service=git-upload-pack')).toMatchObject({
      status: 403,
      text: expect.stringContaining('this session has no repository other') as string,
    });
    expect((await ask('/git/app/objects/info/packs')).status).toBe(404);
    expect((await ask('/git/app/info/refs')).status).toBe(403);
    expect((await ask('/git/app/git-upload-pack')).status).toBe(405);
    const garbage = await ask('/git/app/git-receive-pack', {
      method: 'POST',
      body: 'zzzz not a pkt',
    });
    expect(garbage).toMatchObject({
      status: 400,
      text: expect.stringContaining('bad push') as string,
    });
    const cut = await ask('/git/app/git-receive-pack', { method: 'POST', body: '0040abc' });
    expect(cut.status).toBe(400);
    expect((await ask('/git/app/info/refs?service=git-upload-pack')).status).toBe(200);
  });
});
