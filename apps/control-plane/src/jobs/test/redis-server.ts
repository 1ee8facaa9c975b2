import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real redis-server for one test file, on a free loopback port (never the machine's 6379),
 * without persistence: stopping it loses everything, as `flushAll` does on purpose.
 */
export interface TestRedis {
  host: string;
  port: number;
  /** `redis://127.0.0.1:<port>` */
  url: string;
  /** Runs one command (inline protocol) and returns the raw reply. */
  command(line: string): Promise<string>;
  /** Wipes every key: the "Redis lost its data" case. */
  flushAll(): Promise<void>;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 10_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** One request/reply over a fresh socket; enough for PING, FLUSHALL and test probes. */
function send(port: number, line: string, timeoutMs = 2000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`redis on ${port} did not answer ${line} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('connect', () => socket.write(`${line}\r\n`));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString();
      if (!reply.endsWith('\r\n')) return;
      clearTimeout(timer);
      socket.end();
      resolve(reply.trim());
    });
    socket.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

function ended(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function waitForPing(child: ChildProcess, port: number, output: () => string) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`redis-server exited with ${child.exitCode}: ${output()}`);
    }
    const reply = await send(port, 'PING', 500).catch(() => '');
    if (reply === '+PONG') return;
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`redis-server on ${port} did not answer PING: ${output()}`);
}

/** Starts redis-server (apt package redis-server) and resolves once it answers PING. */
export async function startTestRedis(): Promise<TestRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'sb-redis-'));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  const child = spawn('redis-server', [...args, '--dir', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (d: Buffer) => (output = (output + d.toString()).slice(-4000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (e) => reject(new Error(`cannot run redis-server: ${e.message}`)));
  });
  await spawned;
  await waitForPing(child, port, () => output);
  return {
    host: '127.0.0.1',
    port,
    url: `redis://127.0.0.1:${port}`,
    command: (line) => send(port, line),
    flushAll: async () => {
      const reply = await send(port, 'FLUSHALL');
      if (reply !== '+OK') throw new Error(`FLUSHALL answered ${reply}`);
    },
    stop: async () => {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await ended(child);
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
