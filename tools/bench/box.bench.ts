/**
 * `npm run bench:box`: box create → daemon ready, and a tool call's round trip MCP client →
 * stdio server (in the box) → daemon → gateway → event store → back, beside a bare stdio MCP
 * no-op call measured in the same run. Prints one figure a line. Needs bubblewrap and dist/.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { sessionDetailsQueries, type SqliteReadModelStore } from '@sessionboxer/projections';
import { createApp, listen } from '../../apps/control-plane/src/app.factory';
import type { LocalBoxDriver } from '../../apps/control-plane/src/boxes/driver';
import { loadConfig } from '../../apps/control-plane/src/config';
import { TEST_PASSWORD, signIn } from '../../apps/control-plane/test/harness';
import { BOX_DRIVER, READ_MODELS } from '../../apps/control-plane/src/infrastructure/tokens';

const BOXES = Number(process.env.BENCH_BOXES ?? 30);
const CALLS = Number(process.env.BENCH_CALLS ?? 500);
const now = (): number => Number(process.hrtime.bigint()) / 1e6;
const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const line = (label: string, v: number, unit = 'ms'): void =>
  console.log(`${label}: ${v.toFixed(2)} ${unit}`);

async function timeCalls(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<number[]> {
  for (let i = 0; i < 20; i++) await client.callTool({ name, arguments: args });
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t = now();
    const r = (await client.callTool({
      name,
      arguments: Object.fromEntries(
        Object.entries(args).map(([k, v]) => [k, typeof v === 'string' ? `${v} ${i}` : v]),
      ),
    })) as { isError?: boolean };
    times.push(now() - t);
    if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r)}`);
  }
  return times;
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-box-'));
  const config = loadConfig({
    SESSIONBOXER_PORT: '0',
    SESSIONBOXER_DATA_DIR: dataDir,
    SESSIONBOXER_ADMIN_PASSWORD: TEST_PASSWORD,
  });
  const app = await createApp(config, { logger: ['error'] });
  await listen(app, config);
  const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const auth = { authorization: `Bearer ${await signIn(base, 'admin', TEST_PASSWORD)}` };
  const readModels = app.get<SqliteReadModelStore>(READ_MODELS);
  const clients: Client[] = [];
  try {
    const ready: number[] = [];
    let last = '';
    for (let i = 0; i < BOXES; i++) {
      const t = now();
      const res = await fetch(`${base}/api/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth },
        body: JSON.stringify({ title: `Bench ${i}` }),
      });
      last = ((await res.json()) as { id: string }).id;
      for (;;) {
        const status = sessionDetailsQueries(readModels).get(last)?.box?.status;
        if (status === 'ready') break;
        if (status === 'failed' || now() - t > 60_000) {
          throw new Error(`box ${last} did not get ready (${status ?? 'no box'})`);
        }
        await new Promise((r) => setTimeout(r, 1));
      }
      ready.push(now() - t);
    }
    line(
      `box create → daemon ready, p50 (${BOXES} boxes, ${app.get<LocalBoxDriver>(BOX_DRIVER).isolation})`,
      pct(ready, 50),
    );
    line('box create → daemon ready, p99', pct(ready, 99));

    const mcp = JSON.parse(
      fs.readFileSync(path.join(dataDir, 'boxes', last, 'workspace/.mcp.json'), 'utf8'),
    ) as {
      mcpServers: {
        sessionboxer: { command: string; args: string[]; env: Record<string, string> };
      };
    };
    const entry = mcp.mcpServers.sessionboxer;
    const plan = app
      .get<LocalBoxDriver>(BOX_DRIVER)
      .execPlan(last, [entry.command, ...entry.args], { env: entry.env });
    const boxed = new Client({ name: 'bench', version: '1' });
    await boxed.connect(
      new StdioClientTransport({
        command: plan.command,
        args: plan.args,
        env: plan.env,
        cwd: plan.cwd,
      }),
    );
    clients.push(boxed);
    const bare = new Client({ name: 'bench', version: '1' });
    await bare.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['-r', '@swc-node/register', path.join(__dirname, 'noop-mcp-server.ts')],
      }),
    );
    clients.push(bare);

    const noop = await timeCalls(bare, 'noop', {});
    const write = await timeCalls(boxed, 'notify', { text: 'bench' });
    const read = await timeCalls(boxed, 'whoami', {});
    const title = await timeCalls(boxed, 'title_set', { title: 'Bench' });
    line('bare stdio MCP no-op call, p50', pct(noop, 50));
    line('bare stdio MCP no-op call, p99', pct(noop, 99));
    line('notify (box → daemon → gateway → event store → back), p50', pct(write, 50));
    line('notify round trip, p99', pct(write, 99));
    line('notify p50 / bare no-op p50', pct(write, 50) / pct(noop, 50), 'x');
    line('whoami (read models) round trip, p50', pct(read, 50));
    line('whoami round trip, p99', pct(read, 99));
    line('title_set round trip, p50', pct(title, 50));
    line('title_set round trip, p99', pct(title, 99));
  } finally {
    for (const c of clients) await c.close();
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

void main();
