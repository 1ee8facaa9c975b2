import * as fs from 'node:fs';
import * as net from 'node:net';
import { waitForBox, waitFor } from '../box-kit';
import { startApp, type RunningApp } from '../harness';
import {
  egressEvents,
  inBox,
  OUTSIDE,
  outsideServer,
  useTestResolver,
  type EgressEventView,
} from './egress-kit';

const CURL = ['/usr/bin/curl', '-sS', '--max-time', '20'];

describe('egress from a real box, through its edge and the egress proxy', () => {
  let api: RunningApp;
  let sessionId: string;
  let outside: Awaited<ReturnType<typeof outsideServer>>;
  let cpPort: number;
  let weird: net.Server;
  let weirdPort: number;
  const seenByOutside: { url: string; headers: Record<string, unknown> }[] = [];

  beforeAll(async () => {
    outside = await outsideServer((req, res) => {
      seenByOutside.push({ url: req.url ?? '', headers: req.headers });
      res.end(`hello from the allowed host: ${req.method} ${req.url}`);
    });
    // An outside host that does not answer in HTTP.
    weird = net.createServer((socket) => {
      socket.on('error', () => undefined);
      socket.once('data', () => socket.end('SSH-2.0-OpenSSH_9.2\r\n'));
    });
    await new Promise<void>((resolve) => weird.listen(0, OUTSIDE, resolve));
    weirdPort = (weird.address() as net.AddressInfo).port;
    // Both loopback addresses excepted: the control plane's own port stays refused anyway.
    api = await startApp(undefined, {
      SESSIONBOXER_BOXES: 'on',
      SESSIONBOXER_EGRESS_ALLOW_ADDRESSES: `${OUTSIDE},127.0.0.1`,
    });
    cpPort = Number(new URL(api.url).port);
    useTestResolver(api, {
      'allowed.test': [OUTSIDE],
      'sneaky.test': [OUTSIDE, '10.0.0.7'],
      'metadata.test': ['169.254.169.254'],
    });
    const allow = [
      `allowed.test:${outside.port}`,
      `sneaky.test:${outside.port}`,
      'metadata.test:80',
      '169.254.169.254:80',
      `127.0.0.1:${cpPort}`,
      `allowed.test:${cpPort}`,
      `allowed.test:${weirdPort}`,
    ];
    expect((await api.request('PUT', '/api/settings/egress', { allow })).status).toBe(200);
    sessionId = (await api.request('POST', '/api/sessions', { title: 'Egress' })).body.id;
    await waitForBox(api, sessionId);
  });
  afterAll(async () => {
    await api?.close();
    await outside?.close();
    await new Promise((resolve) => weird?.close(resolve));
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  const refusedEvent = (host: string, port: number) => (e: EgressEventView) =>
    e.type === 'EgressRefused' && e.data.host === host && e.data.port === port;

  it('the box names its edge as its proxy and has no other way out', async () => {
    const { out } = await inBox(api, sessionId, ['/usr/bin/env']);
    expect(out).toContain('HTTPS_PROXY=http://127.0.0.1:7001');
    expect(out).toContain('no_proxy=127.0.0.1,localhost,::1');
    const direct = await inBox(api, sessionId, [
      ...CURL,
      '--noproxy',
      '*',
      `http://${OUTSIDE}:${outside.port}/`,
    ]);
    expect(direct.code).not.toBe(0);
  });

  it('forwards plain HTTP to an allowed host, without the proxy headers, and counts it', async () => {
    const { out } = await inBox(api, sessionId, [
      ...CURL,
      '-H',
      'Proxy-Authorization: Basic c2VjcmV0',
      `http://allowed.test:${outside.port}/plain?x=1`,
    ]);
    expect(out).toBe('hello from the allowed host: GET /plain?x=1');
    const seen = seenByOutside.find((s) => s.url === '/plain?x=1');
    expect(seen?.headers['proxy-authorization']).toBeUndefined();
    expect(seen?.headers.host).toBe(`allowed.test:${outside.port}`);
    const [allowed] = await egressEvents(api, sessionId, (e) => e.type === 'EgressAllowed');
    expect(allowed.data).toMatchObject({
      host: 'allowed.test',
      port: outside.port,
      address: OUTSIDE,
    });
    const hosts = await waitFor('the hosts read model', async () => {
      const body = (await api.request('GET', `/api/sessions/${sessionId}/egress/hosts`)).body;
      return Array.isArray(body) && body.length > 0 ? body : null;
    });
    expect(hosts[0]).toMatchObject({
      target: `allowed.test:${outside.port}`,
      count: expect.any(Number),
    });
  });

  it('tunnels a CONNECT to an allowed host', async () => {
    const { out } = await inBox(api, sessionId, [
      ...CURL,
      '--proxytunnel',
      `http://allowed.test:${outside.port}/tunnelled`,
    ]);
    expect(out).toBe('hello from the allowed host: GET /tunnelled');
  });

  it('refuses a name not on the list, with an event and a transcript marker', async () => {
    const { out } = await inBox(api, sessionId, [...CURL, 'http://evil.example/']);
    expect(out).toContain('blocked a connection to evil.example:80');
    const connect = await inBox(api, sessionId, [
      ...CURL,
      '-w',
      '%{http_connect}',
      'https://evil.example/',
    ]);
    expect(connect.out).toBe('403');
    const [event] = await egressEvents(api, sessionId, refusedEvent('evil.example', 443));
    expect(event.data.code).toBe('not_allowed');
    const marker = await waitFor('the marker', async () => {
      const page = (await api.request('GET', `/api/sessions/${sessionId}/transcript`)).body;
      const entries = page.entries as { marker?: { kind: string; text: string } }[];
      return entries.find((e) =>
        e.marker?.text.startsWith('blocked a connection to evil.example:443'),
      )?.marker;
    });
    expect(marker.kind).toBe('egress-refused');
    expect(marker.text).toContain('not on the allow list');
  });

  it("refuses the control plane's own address and port, whatever the list and exceptions say", async () => {
    // The box's own loopback is in NO_PROXY: this curl is told to use the proxy even so.
    const viaProxy = ['/usr/bin/env', 'NO_PROXY=', 'no_proxy=', ...CURL];
    const direct = await inBox(api, sessionId, [
      ...viaProxy,
      `http://127.0.0.1:${cpPort}/api/health`,
    ]);
    expect(direct.out).toContain(`blocked a connection to 127.0.0.1:${cpPort}`);
    await inBox(api, sessionId, [...CURL, `http://allowed.test:${cpPort}/api/health`]);
    const [a] = await egressEvents(api, sessionId, refusedEvent('127.0.0.1', cpPort));
    const [b] = await egressEvents(api, sessionId, refusedEvent('allowed.test', cpPort));
    expect([a.data.code, b.data.code]).toEqual(['control_plane', 'control_plane']);
  });

  it('refuses the metadata address, as a literal and behind a listed name', async () => {
    const { out } = await inBox(api, sessionId, [
      ...CURL,
      'http://169.254.169.254/latest/meta-data/',
    ]);
    expect(out).toContain('the cloud metadata address');
    await inBox(api, sessionId, [...CURL, 'http://metadata.test/']);
    const [a] = await egressEvents(api, sessionId, refusedEvent('169.254.169.254', 80));
    const [b] = await egressEvents(api, sessionId, refusedEvent('metadata.test', 80));
    expect(a.data.code).toBe('refused_address');
    expect(b.data.reason).toBe(
      'metadata.test resolves to 169.254.169.254, the cloud metadata address',
    );
  });

  it('refuses a listed name when any address it resolves to is refused', async () => {
    const { out } = await inBox(api, sessionId, [
      ...CURL,
      '--proxytunnel',
      `http://sneaky.test:${outside.port}/`,
    ]);
    expect(out).not.toContain('hello');
    const [event] = await egressEvents(api, sessionId, refusedEvent('sneaky.test', outside.port));
    expect(event.data.reason).toBe('sneaky.test resolves to 10.0.0.7, a private address');
  });

  it('refuses a CONNECT to a port the list does not name', async () => {
    const { out } = await inBox(api, sessionId, [
      ...CURL,
      '-w',
      '%{http_connect}',
      '--proxytunnel',
      'http://allowed.test:22/',
    ]);
    expect(out).toBe('403');
    const [event] = await egressEvents(api, sessionId, refusedEvent('allowed.test', 22));
    expect(event.data.code).toBe('not_allowed');
  });

  it('lets a session replace the list for itself alone', async () => {
    const put = await api.request('PUT', `/api/sessions/${sessionId}/egress`, {
      mode: 'replace',
      allow: [`allowed.test:${outside.port}`],
    });
    expect(put.body).toMatchObject({
      mode: 'replace',
      effective: [`allowed.test:${outside.port}`],
    });
    const bad = await api.request('PUT', `/api/sessions/${sessionId}/egress`, {
      mode: 'replace',
      allow: ['nope'],
    });
    expect(bad.status).toBe(400);
    await inBox(api, sessionId, [...CURL, 'http://metadata.test/']);
    const events = await egressEvents(api, sessionId, refusedEvent('metadata.test', 80), 2);
    expect(events[1].data.code).toBe('not_allowed');
  });

  it('answers 502 for a host that does not speak HTTP it can pass on, and goes on', async () => {
    await api.request('PUT', `/api/sessions/${sessionId}/egress`, { mode: 'inherit', allow: [] });
    const { out } = await inBox(api, sessionId, [...CURL, `http://allowed.test:${weirdPort}/`]);
    expect(out).toContain(`could not reach allowed.test:${weirdPort} (${OUTSIDE}): HPE_`);
    const again = await inBox(api, sessionId, [
      ...CURL,
      `http://allowed.test:${outside.port}/after`,
    ]);
    expect(again.out).toBe('hello from the allowed host: GET /after');
  });
});
