/**
 * `npm run bench:egress`: a 100 MB download from inside a real box through its edge (the
 * daemon's pipe, edge.sock, the egress proxy), plain HTTP and through a CONNECT tunnel, beside
 * the same download direct on the host; and the latency a small request gains through the
 * proxy (p50, p99; keep-alive on both sides). The "outside" server is on 127.0.0.2 (excepted
 * by the operator setting), its name resolved by a test resolver. Needs bubblewrap and dist/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import { waitForBox } from '../../apps/control-plane/test/box-kit';
import { inBox, OUTSIDE, useTestResolver } from '../../apps/control-plane/test/egress/egress-kit';
import { startApp } from '../../apps/control-plane/test/harness';

const MB = Number(process.env.BENCH_MB ?? 100);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 500);
const line = (label: string, v: number, unit: string): void =>
  console.log(`${label}: ${v.toFixed(2)} ${unit}`);

/** curl's own figure (bytes/s) for one download; argv from the box's or the host's side. */
async function download(run: (argv: string[]) => Promise<string>, extra: string[], url: string) {
  const out = await run([
    '/usr/bin/curl',
    '-sS',
    '-o',
    '/dev/null',
    '-w',
    '%{speed_download}',
    ...extra,
    url,
  ]);
  const speed = Number(out.trim());
  if (!Number.isFinite(speed) || speed <= 0) throw new Error(`download failed: ${out}`);
  return speed / (1024 * 1024);
}

/** A node program timing REQUESTS sequential small GETs, kept alive, through `proxy` or not. */
function latencyProgram(url: string, proxy: string | null): string {
  return `const http = require('http');
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const u = new URL(${JSON.stringify(url)}); const proxy = ${JSON.stringify(proxy)};
    const opts = proxy ? { host: '127.0.0.1', port: 7001, path: u.href, headers: { host: u.host } }
      : { host: u.hostname, port: u.port, path: u.pathname };
    const once = () => new Promise((ok, no) => http.get({ ...opts, agent }, (r) => { r.resume(); r.on('end', ok); }).on('error', no));
    (async () => { for (let i = 0; i < 50; i++) await once(); const t = [];
      for (let i = 0; i < ${REQUESTS}; i++) { const s = process.hrtime.bigint(); await once(); t.push(Number(process.hrtime.bigint() - s) / 1e6); }
      t.sort((a, b) => a - b); console.log(JSON.stringify([t[Math.floor(t.length / 2)], t[Math.floor(t.length * 0.99)]])); agent.destroy(); })();`;
}

/** The "outside" host: 100 MB at /big, `ok` elsewhere, on OUTSIDE, in its own node. */
function outsideProcess(): Promise<{ port: number; child: ChildProcess }> {
  const program = `const big = Buffer.alloc(${MB} * 1024 * 1024, 'x');
    const s = require('http').createServer((q, r) => { if (q.url === '/big') { r.writeHead(200, { 'content-length': big.length }); r.end(big); } else r.end('ok'); });
    s.listen(0, ${JSON.stringify(OUTSIDE)}, () => console.log(s.address().port));`;
  const child = spawn(process.execPath, ['-e', program], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve) =>
    child.stdout.once('data', (d: Buffer) => resolve({ port: Number(d.toString().trim()), child })),
  );
}

async function main(): Promise<void> {
  // In a process of its own, so that serving never shares the control plane's event loop.
  const outside = await outsideProcess();
  const api = await startApp(undefined, {
    SESSIONBOXER_BOXES: 'on',
    SESSIONBOXER_EGRESS_ALLOW_ADDRESSES: OUTSIDE,
  });
  try {
    useTestResolver(api, { 'outside.test': [OUTSIDE] });
    await api.request('PUT', '/api/settings/egress', { allow: [`outside.test:${outside.port}`] });
    const id = (await api.request('POST', '/api/sessions', { title: 'bench' })).body.id as string;
    await waitForBox(api, id, 'ready', 60_000);
    const box = async (argv: string[]) => (await inBox(api, id, argv)).out;
    const host = (argv: string[]) =>
      new Promise<string>((resolve) => {
        const child = spawn(argv[0], argv.slice(1));
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.on('exit', () => resolve(out));
      });
    const big = `http://outside.test:${outside.port}/big`;
    const direct = await download(
      host,
      ['--noproxy', '*'],
      `http://${OUTSIDE}:${outside.port}/big`,
    );
    const plain = await download(box, [], big);
    const tunnel = await download(box, ['--proxytunnel'], big);
    line(`download ${MB} MB direct on the host`, direct, 'MB/s');
    line(`download ${MB} MB from a box, plain HTTP through the proxy`, plain, 'MB/s');
    line(`download ${MB} MB from a box, CONNECT tunnel`, tunnel, 'MB/s');
    line('ratio plain / direct (target ≥ 0.7)', plain / direct, '×');
    line('ratio tunnel / direct (target ≥ 0.7)', tunnel / direct, '×');

    const small = `http://outside.test:${outside.port}/small`;
    const hostRun = await host([
      '/usr/bin/node',
      '-e',
      latencyProgram(`http://${OUTSIDE}:${outside.port}/small`, null),
    ]);
    const boxRun = await box(['/usr/bin/node', '-e', latencyProgram(small, 'edge')]);
    const [d50, d99] = JSON.parse(hostRun) as number[];
    const [p50, p99] = JSON.parse(boxRun) as number[];
    line(`small GET direct on the host p50 (${REQUESTS} requests)`, d50, 'ms');
    line('small GET from a box through the proxy p50', p50, 'ms');
    line('small GET from a box through the proxy p99', p99, 'ms');
    line('added latency per request p50 (target < 2 ms)', p50 - d50, 'ms');
    line('added latency per request p99', p99 - d99, 'ms');
  } finally {
    await api.close();
    outside.child.kill();
    fs.rmSync(api.dataDir, { recursive: true, force: true });
    http.globalAgent.destroy();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
