import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import { answer, answerSocket } from './edge-answers';
import { EdgeRoutes } from './edge-routes';
import { closeEdgeServer, createEdgeServer, type EdgeProxy } from './edge-server';

/** Sends raw bytes to the socket and reads until it closes (or `until` matches). */
export function rawRequest(socketPath: string, bytes: string | Buffer, until?: RegExp) {
  return new Promise<string>((resolve, reject) => {
    const socket = net.connect(socketPath);
    let text = '';
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      if (until?.test(text)) socket.destroy();
    });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
    socket.write(bytes);
  });
}

describe('a box edge server', () => {
  let dir: string;
  let socketPath: string;
  let server: http.Server;
  const seen: string[] = [];
  const proxy: EdgeProxy = {
    tunnel: (caller, authority, socket) => {
      seen.push(`tunnel ${caller.sessionId} ${authority}`);
      answerSocket(socket, 403, 'test proxy refuses');
    },
    forward: (caller, _req, res, url) => {
      seen.push(`forward ${caller.sessionId} ${url.href}`);
      answer(res, 403, 'test proxy refuses');
    },
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edge-'));
    socketPath = path.join(dir, 'edge.sock');
    const routes = new EdgeRoutes();
    routes.add('/provider/anthropic', (req, res, caller, subPath) => {
      res.end(`${caller.sessionId} ${req.method} ${subPath}`);
    });
    routes.add('/provider', (_req, res) => void res.end('shorter prefix'));
    routes.add('/boom', () => Promise.reject(new Error('handler failed')));
    server = createEdgeServer({ sessionId: 's-1' }, routes, proxy, new Logger('test'));
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  });
  afterAll(async () => {
    await closeEdgeServer(server);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const get = (target: string) =>
    rawRequest(socketPath, `GET ${target} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`);

  it('sends an origin-form request to the longest matching prefix, with the rest and the query', async () => {
    const reply = await get('/provider/anthropic/v1/messages?beta=true');
    expect(reply).toMatch(/^HTTP\/1.1 200/);
    expect(reply).toContain('s-1 GET /v1/messages?beta=true');
    expect(await get('/provider/anthropicx')).toContain('shorter prefix');
  });

  it('takes an absolute-form request to its own in-box address as origin-form', async () => {
    expect(await get('http://127.0.0.1:7001/provider/anthropic/v1/x')).toContain('s-1 GET /v1/x');
    expect(await get('http://localhost:7001/provider/anthropic')).toContain('s-1 GET /');
  });

  it('answers 404 naming the path when no route matches, and 502 when a handler fails', async () => {
    const reply = await get('/nothing/here?q=1');
    expect(reply).toMatch(/^HTTP\/1.1 404/);
    expect(reply).toContain('no edge route for /nothing/here');
    expect(await get('/boom')).toMatch(/^HTTP\/1.1 502/);
  });

  it('hands CONNECT and absolute-form requests to other hosts to the proxy', async () => {
    seen.length = 0;
    const connect = await rawRequest(socketPath, 'CONNECT evil.example:443 HTTP/1.1\r\n\r\n');
    expect(connect).toMatch(/^HTTP\/1.1 403/);
    expect(await get('http://example.org:8080/a?b')).toMatch(/^HTTP\/1.1 403/);
    expect(seen).toEqual([
      'tunnel s-1 evil.example:443',
      'forward s-1 http://example.org:8080/a?b',
    ]);
  });

  it('answers malformed requests with a 400 and goes on', async () => {
    expect(await rawRequest(socketPath, 'NOT HTTP AT ALL\r\n\r\n')).toMatch(/^HTTP\/1.1 400/);
    expect(await get('ftp://x/y')).toMatch(/^HTTP\/1.1 400/);
    expect(await get('/provider/anthropic/ok')).toMatch(/^HTTP\/1.1 200/);
  });

  it('closes with a tunnel still open: the tunnel ends, closing does not wait for it', async () => {
    const other = createEdgeServer({ sessionId: 's-2' }, new EdgeRoutes(), tunnelling, quiet);
    const otherPath = path.join(dir, 'other.sock');
    await new Promise<void>((resolve) => other.listen(otherPath, resolve));
    const socket = net.connect(otherPath);
    const closed = new Promise((resolve) => socket.on('close', resolve));
    socket.write('CONNECT held.example:443 HTTP/1.1\r\n\r\n');
    await new Promise((resolve) => socket.once('data', resolve));
    await closeEdgeServer(other);
    await closed;
    expect(socket.destroyed).toBe(true);
  });
});

/** A proxy that accepts every tunnel and holds it open, sending nothing more. */
const tunnelling: EdgeProxy = {
  tunnel: (_caller, _authority, socket) =>
    void socket.write('HTTP/1.1 200 Connection Established\r\n\r\n'),
  forward: (_caller, _req, res) => answer(res, 403, 'no'),
};
const quiet = new Logger('test');
