import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * A TEST DOUBLE standing in for GitHub's git hosting: a Node HTTP server on 127.0.0.1 that
 * runs the real `git http-backend` (CGI, smart HTTP) over bare repositories the test creates.
 * Every request must carry `expectedAuthorization` (when set), or it gets a 401, as GitHub
 * answers a missing token; each request's Authorization is recorded for the test to check.
 */
export interface GitHttpDouble {
  /** http://127.0.0.1:<port> */
  url: string;
  /** The clone URL of a bare repository: `${url}/${name}.git`. */
  repoUrl(name: string): string;
  /** Makes `<root>/<name>.git` with one commit on `branch` holding `files`. */
  createRepo(name: string, files: Record<string, string>, branch?: string): string;
  /** `git` run in a bare repository of the double (rev-parse, log, show …). */
  git(name: string, ...args: string[]): string;
  /** The Authorization header of every request, in order (undefined when none was sent). */
  authorizations: (string | undefined)[];
  close(): Promise<void>;
}

const CLEAN_ENV = {
  PATH: '/usr/local/bin:/usr/bin:/bin',
  HOME: '/nonexistent',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};

export async function startGitHttpDouble(
  options: { expectedAuthorization?: string } = {},
): Promise<GitHttpDouble> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-git-double-'));
  const authorizations: (string | undefined)[] = [];
  const server = http.createServer((req, res) => {
    authorizations.push(req.headers.authorization);
    if (
      options.expectedAuthorization &&
      req.headers.authorization !== options.expectedAuthorization
    ) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="git double"' });
      res.end('the git double needs the expected Authorization\n');
      return;
    }
    backend(root, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const git = (name: string, ...args: string[]) =>
    execFileSync('git', ['-C', path.join(root, `${name}.git`), ...args], {
      env: CLEAN_ENV,
      encoding: 'utf8',
    }).trim();
  return {
    url,
    repoUrl: (name) => `${url}/${name}.git`,
    createRepo(name, files, branch = 'main') {
      const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-git-seed-'));
      const run = (...args: string[]) => execFileSync('git', args, { cwd: work, env: CLEAN_ENV });
      run('init', '-q', '-b', branch);
      for (const [file, content] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
        fs.writeFileSync(path.join(work, file), content);
      }
      run('add', '-A');
      run('-c', 'user.name=Seed', '-c', 'user.email=seed@example.com', 'commit', '-qm', 'seed');
      const bare = path.join(root, `${name}.git`);
      execFileSync('git', ['clone', '-q', '--bare', work, bare], { env: CLEAN_ENV });
      fs.rmSync(work, { recursive: true, force: true });
      return bare;
    },
    git,
    authorizations,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/** One request through `git http-backend` as CGI (argv, environment; stdin the body). */
function backend(root: string, req: http.IncomingMessage, res: http.ServerResponse): void {
  const u = new URL(req.url ?? '/', 'http://double');
  const env: Record<string, string> = {
    ...CLEAN_ENV,
    GIT_PROJECT_ROOT: root,
    GIT_HTTP_EXPORT_ALL: '1',
    REMOTE_USER: 'sessionboxer-test',
    REMOTE_ADDR: '127.0.0.1',
    REQUEST_METHOD: req.method ?? 'GET',
    PATH_INFO: decodeURIComponent(u.pathname),
    QUERY_STRING: u.search.slice(1),
    CONTENT_TYPE: req.headers['content-type'] ?? '',
  };
  if (req.headers['content-length']) env.CONTENT_LENGTH = req.headers['content-length'];
  if (req.headers['content-encoding']) env.HTTP_CONTENT_ENCODING = req.headers['content-encoding'];
  const protocol = req.headers['git-protocol'];
  if (typeof protocol === 'string') env.GIT_PROTOCOL = protocol;
  const cgi = spawn('git', ['http-backend'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  req.pipe(cgi.stdin);
  cgi.stdin.on('error', () => undefined);
  let head = Buffer.alloc(0);
  let started = false;
  cgi.stdout.on('data', (chunk: Buffer) => {
    if (started) return void res.write(chunk);
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) return;
    started = true;
    let status = 200;
    const headers: Record<string, string> = {};
    for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':');
      const key = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (key === 'status') status = Number.parseInt(value, 10);
      else headers[key] = value;
    }
    res.writeHead(status, headers);
    res.write(head.subarray(end + 4));
  });
  cgi.once('close', () => {
    if (!started) res.writeHead(500);
    res.end();
  });
}
