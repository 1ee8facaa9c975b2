/**
 * `npm run bench:agent`: the real Claude Code in a bubblewrap box against the model-provider
 * double, through the box's edge and the Anthropic relay. Per turn: prompt (POST /prompts) →
 * the first model request at the double, and tool_use (the double's answer calling
 * mcp__sessionboxer__whoami, written) → the next request carrying its tool_result (the MCP call
 * in the box, through the daemon and gateway, and back to the CLI). BENCH_TURNS turns (default
 * 20) in one session, after one warm-up turn. Needs bubblewrap and dist/.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  conversationQueries,
  sessionDetailsQueries,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';
import { createApp, listen } from '../../apps/control-plane/src/app.factory';
import { loadConfig } from '../../apps/control-plane/src/config';
import { READ_MODELS } from '../../apps/control-plane/src/infrastructure/tokens';
import {
  anthropicToolResults,
  ModelProviderDouble,
  say,
  use,
  type ScriptStep,
} from '../../apps/control-plane/test/doubles/model-provider/model-provider-double';
import { TEST_PASSWORD, signIn } from '../../apps/control-plane/test/harness';

const TURNS = Math.max(1, Math.min(200, Number(process.env.BENCH_TURNS ?? 20)));
const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const line = (label: string, v: number): void => console.log(`${label}: ${v.toFixed(2)} ms`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every turn: a whoami call, then a text; step 2k + 1 answers turn k's tool result. */
function script(turns: number): ScriptStep[] {
  return Array.from({ length: turns }, (_, i) => [
    [use('mcp__sessionboxer__whoami', {})],
    [say(`Turn ${i + 1} done.`)],
  ]).flat();
}

async function main(): Promise<void> {
  const double = await ModelProviderDouble.start(script(TURNS + 1));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-agent-'));
  const config = loadConfig({
    SESSIONBOXER_PORT: '0',
    SESSIONBOXER_DATA_DIR: dataDir,
    SESSIONBOXER_ADMIN_PASSWORD: TEST_PASSWORD,
    SESSIONBOXER_ANTHROPIC_BASE_URL: double.url,
  });
  const app = await createApp(config, { logger: ['error'] });
  await listen(app, config);
  const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const auth = { authorization: `Bearer ${await signIn(base, 'admin', TEST_PASSWORD)}` };
  const api = async (method: string, route: string, body?: unknown) => {
    const res = await fetch(`${base}${route}`, {
      method,
      headers: { 'content-type': 'application/json', ...auth },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await res.json()) as Record<string, any>;
  };
  const readModels = app.get<SqliteReadModelStore>(READ_MODELS);
  try {
    await api('PUT', '/api/settings/credentials/anthropicApiKey', {
      value: `sk-ant-bench-${'x'.repeat(40)}`,
    });
    const { id } = await api('POST', '/api/sessions', { title: 'Bench', provider: 'claude-code' });
    for (let t = performance.now(); ; await sleep(5)) {
      const status = sessionDetailsQueries(readModels).get(id)?.box?.status;
      if (status === 'ready') break;
      if (status === 'failed' || performance.now() - t > 60_000) throw new Error(`box ${status}`);
    }
    const toFirst: number[] = [];
    const toResult: number[] = [];
    for (let turn = 1; turn <= TURNS + 1; turn++) {
      const from = double.requests.length;
      const sent = performance.now();
      await api('POST', `/api/sessions/${id}/prompts`, { text: `Turn ${turn}: who am I?` });
      const first = await double.next((r) => r.kind === 'main', from);
      const back = await double.next(
        (r) => r.kind === 'main' && anthropicToolResults(r.body ?? {}).length > 0,
        from,
      );
      for (let t = performance.now(); ; await sleep(5)) {
        const doc = conversationQueries(readModels).get(id);
        if (doc && doc.currentTurn === null && doc.turns >= turn) break;
        if (performance.now() - t > 120_000) throw new Error(`turn ${turn} did not end`);
      }
      if (first.answered === null) throw new Error('the double never finished its answer');
      if (turn === 1) continue; // warm-up: the CLI's first start in this box
      toFirst.push(first.at - sent);
      toResult.push(back.at - first.answered);
    }
    const finished = conversationQueries(readModels).get(id);
    console.log(`claude-code in a box, ${TURNS} turns (${finished?.turns ?? 0} run in all)`);
    line('prompt → first model request at the double, p50', pct(toFirst, 50));
    line('prompt → first model request at the double, p99', pct(toFirst, 99));
    line('tool_use → its MCP result back at the double (whoami), p50', pct(toResult, 50));
    line('tool_use → its MCP result back at the double (whoami), p99', pct(toResult, 99));
  } finally {
    await app.close();
    await double.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
