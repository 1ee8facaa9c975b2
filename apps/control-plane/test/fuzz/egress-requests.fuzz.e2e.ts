import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import fc from 'fast-check';
import { boxPaths } from '../../src/boxes/lifecycle/box-paths';
import { waitForBox } from '../box-kit';
import { OUTSIDE, outsideServer, useTestResolver } from '../egress/egress-kit';
import { startApp, type RunningApp } from '../harness';

/**
 * 1,000 seeded malformed proxy requests written to a real box's edge socket: broken request
 * lines, odd CONNECT authorities and absolute-form URLs, control bytes, oversized headers, raw
 * bytes. Each gets an HTTP answer or a closed connection (never a hang: the test half-closes
 * after writing), and after all of them the proxy still tunnels and forwards.
 */
const SEED = 20261201;
const RUNS = 1000;

const text = (max: number) => fc.string({ unit: 'binary', maxLength: max });
const token = fc.constantFrom(
  'GET',
  'CONNECT',
  'POST',
  'PUT',
  'OPTIONS',
  'G E T',
  '',
  '\0',
  'HEAD',
);
const authority = fc.oneof(
  text(60),
  fc.stringMatching(/^[a-z0-9.*-]{0,30}:[0-9]{0,6}$/),
  fc.constantFrom(
    'evil.example',
    'evil.example:',
    ':443',
    'evil.example:0',
    'evil.example:99999',
    '[::1]:443',
    '[zz]:1',
    'user@host:443',
    '127.0.0.1:1',
    '169.254.169.254:80',
    `${'a'.repeat(300)}:443`,
    '*.example:443',
  ),
);
const target = fc.oneof(
  authority,
  authority.map((a) => `http://${a}/x`),
  text(80).map((t) => `http://${t}`),
  fc.constantFrom(
    'https://evil.example/',
    'ftp://x/',
    '//x',
    '*',
    'http://',
    'http://[::1',
    '/%00',
  ),
);
const version = fc.constantFrom(
  'HTTP/1.1',
  'HTTP/1.0',
  'HTTP/2.0',
  'HTTP/9',
  'http/1.1',
  '',
  'HTTP/1.1 extra',
);
const header = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom('Host: x', 'Accept: */*', 'Proxy-Authorization: Basic x'),
  },
  fc.tuple(text(20), text(40)).map(([k, v]) => `${k}: ${v}`),
  fc.constantFrom(
    'Content-Length: -1',
    'Content-Length: 99999999999999999999',
    'Transfer-Encoding: chunked, gzip',
    'Host:',
    ' folded: header',
    'Connection: upgrade',
    'Upgrade: websocket',
  ),
  fc.integer({ min: 17, max: 40 }).map((k) => `X-Big: ${'b'.repeat(k * 1024)}`),
);
const nearlyRight = fc
  .tuple(
    fc.constantFrom('GET', 'CONNECT', 'POST', 'DELETE'),
    target,
    fc.array(fc.constantFrom('Host: x', 'Accept: */*', 'Proxy-Authorization: Basic eA=='), {
      maxLength: 3,
    }),
  )
  .map(([m, t, hs]) =>
    Buffer.from(`${m} ${t} HTTP/1.1\r\n${hs.map((h) => `${h}\r\n`).join('')}\r\n`, 'latin1'),
  );
const request = fc.oneof(
  { weight: 3, arbitrary: nearlyRight },
  fc
    .tuple(token, target, version, fc.array(header, { maxLength: 4 }), text(200))
    .map(([m, t, v, hs, body]) =>
      Buffer.from(`${m} ${t} ${v}\r\n${hs.join('\r\n')}\r\n\r\n${body}`, 'latin1'),
    ),
  fc.uint8Array({ maxLength: 2048 }).map((b) => Buffer.from(b)),
  fc.tuple(token, target).map(([m, t]) => Buffer.from(`${m} ${t}\n\n`, 'latin1')),
);

/** Writes, half-closes, and resolves with what came back once the edge closes. */
function exchange(socketPath: string, bytes: Buffer): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect({ path: socketPath, allowHalfOpen: true });
    let got = '';
    socket.on('data', (d: Buffer) => (got += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(got));
    socket.on('end', () => socket.destroy());
    socket.end(bytes);
  });
}

describe('the egress proxy under malformed requests', () => {
  let api: RunningApp;
  let edgeSocket: string;
  let outside: Awaited<ReturnType<typeof outsideServer>>;

  beforeAll(async () => {
    outside = await outsideServer((_req, res) => res.end('still here'));
    api = await startApp(undefined, {
      SESSIONBOXER_BOXES: 'on',
      SESSIONBOXER_EGRESS_ALLOW_ADDRESSES: OUTSIDE,
    });
    useTestResolver(api, { 'allowed.test': [OUTSIDE] });
    await api.request('PUT', '/api/settings/egress', { allow: [`allowed.test:${outside.port}`] });
    const id = (await api.request('POST', '/api/sessions', { title: 'Fuzzed edge' })).body.id;
    await waitForBox(api, id);
    edgeSocket = path.join(boxPaths(api.dataDir, id).runDir, 'edge.sock');
  });
  afterAll(async () => {
    await api?.close();
    await outside?.close();
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('answers each with an HTTP status or a close, and keeps tunnelling and forwarding', async () => {
    const statuses = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(request, async (bytes) => {
        const reply = await exchange(edgeSocket, bytes);
        const status =
          /^HTTP\/1\.1 (\d{3}) /.exec(reply)?.[1] ?? (reply === '' ? 'closed' : 'other');
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        expect(status).not.toBe('other');
        expect(['200', '500']).not.toContain(status);
      }),
      { seed: SEED, numRuns: RUNS },
    );
    expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(RUNS);
    expect(statuses.get('400')).toBeGreaterThan(100);

    const forwarded = await exchange(
      edgeSocket,
      Buffer.from(
        `GET http://allowed.test:${outside.port}/ HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`,
      ),
    );
    expect(forwarded).toMatch(/^HTTP\/1\.1 200 [^]*still here$/);
    const tunnel = await new Promise<string>((resolve) => {
      const socket = net.connect(edgeSocket);
      let got = '';
      socket.on('data', (d: Buffer) => {
        got += d.toString();
        if (got.includes('still here')) socket.destroy();
      });
      socket.on('close', () => resolve(got));
      socket.write(`CONNECT allowed.test:${outside.port} HTTP/1.1\r\n\r\n`);
      socket.write('GET / HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n');
    });
    expect(tunnel).toMatch(
      /^HTTP\/1\.1 200 Connection Established\r\n\r\nHTTP\/1\.1 200 [^]*still here/,
    );
  });
});
