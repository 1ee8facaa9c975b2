import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

/** A real OpenSSH sshd on a free 127.0.0.1 port, with its own host key and authorized key. */
export interface Sshd {
  port: number;
  user: string;
  /** The client key sshd accepts (OpenSSH private key text). */
  clientKey: string;
  /** `SHA256:…` of sshd's host key, as ssh-keygen -lf prints it. */
  hostFingerprint: string;
  /** Children of sshd: one per open SSH connection. */
  connections(): number;
  /** Gives sshd a new host key (and restarts it on the same port). */
  changeHostKey(): Promise<void>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function keygen(file: string): void {
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'sb-test', '-f', file]);
}

function fingerprint(pub: string): string {
  return execFileSync('ssh-keygen', ['-lf', pub], { encoding: 'utf8' }).split(' ')[1];
}

export async function startSshd(): Promise<Sshd> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-sshd-'));
  fs.mkdirSync('/run/sshd', { recursive: true });
  const hostKey = path.join(dir, 'host_key');
  const userKey = path.join(dir, 'user_key');
  keygen(hostKey);
  keygen(userKey);
  fs.copyFileSync(`${userKey}.pub`, path.join(dir, 'authorized_keys'));
  const port = await freePort();
  const user = os.userInfo().username;
  const config = path.join(dir, 'sshd_config');
  fs.writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKey}`,
      `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
      `PidFile ${path.join(dir, 'sshd.pid')}`,
      'UsePAM no',
      'StrictModes no',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      'MaxSessions 100',
      'MaxStartups 100',
      // A ~/.bashrc that runs `pyenv init` (root's on these machines) rehashes at each login; a
      // shell a test closes mid-rehash leaves pyenv's lock, and every later login would wait
      // 60 s for it. Sessionboxer uses no pyenv: a stale lock then costs a second, not a test.
      'SetEnv PYENV_REHASH_TIMEOUT=1',
      '',
    ].join('\n'),
  );
  let child: ChildProcess;
  const start = async () => {
    child = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', config], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    await new Promise<void>((resolve, reject) => {
      let log = '';
      child.stderr?.on('data', (b: Buffer) => {
        log += b.toString();
        if (log.includes('Server listening')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`sshd exited ${code}: ${log}`)));
    });
  };
  const stopChild = async () => {
    if (child.exitCode !== null) return;
    // Its per-connection children outlive it: end them first (only this sshd's own).
    try {
      execFileSync('pkill', ['-TERM', '-P', String(child.pid)]);
    } catch {
      // none left
    }
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  await start();
  const sshd: Sshd = {
    port,
    user,
    clientKey: fs.readFileSync(userKey, 'utf8'),
    hostFingerprint: fingerprint(`${hostKey}.pub`),
    connections: () => {
      try {
        return execFileSync('pgrep', ['-P', String(child.pid)], { encoding: 'utf8' })
          .trim()
          .split('\n').length;
      } catch {
        return 0;
      }
    },
    async changeHostKey() {
      await stopChild();
      fs.rmSync(hostKey);
      fs.rmSync(`${hostKey}.pub`);
      keygen(hostKey);
      sshd.hostFingerprint = fingerprint(`${hostKey}.pub`);
      await start();
    },
    async stop() {
      await stopChild();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return sshd;
}
