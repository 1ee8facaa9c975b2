/**
 * `npm run bench:limits`: the limits' write side under load, through the gateway's own entry
 * (CallService, as box frames arrive), boxes off. Prints session_message throughput and
 * latency across BENCH_SESSIONS sessions, then the race of BENCH_RACE concurrent session_create
 * calls from one agent: how many got through (must be 3) and the conflict-retry rate.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CommandHandler } from '@sessionboxer/event-store';
import { createApp, listen } from '../../apps/control-plane/src/app.factory';
import { CallService } from '../../apps/control-plane/src/box-gateway/call.service';
import { loadConfig } from '../../apps/control-plane/src/config';
import { TEST_PASSWORD, signIn } from '../../apps/control-plane/test/harness';

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 100);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const RACE = Number(process.env.BENCH_RACE ?? 50);
const now = (): number => Number(process.hrtime.bigint()) / 1e6;
const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-limits-'));
  const config = loadConfig({
    SESSIONBOXER_PORT: '0',
    SESSIONBOXER_DATA_DIR: dataDir,
    SESSIONBOXER_BOXES: 'off',
    SESSIONBOXER_ADMIN_PASSWORD: TEST_PASSWORD,
  });
  const app = await createApp(config, { logger: ['error'] });
  const base = await listen(app, config);
  const auth = { authorization: `Bearer ${await signIn(base, 'admin', TEST_PASSWORD)}` };
  const calls = app.get(CallService);
  const handler = app.get(CommandHandler);
  let n = 0;
  const call = (sessionId: string, tool: string, args: object) =>
    calls.handle(sessionId, { callId: `bench-call-${++n}`, route: 'sessionboxer', tool, args });
  const api = async (method: string, route: string, body?: unknown): Promise<any> =>
    (
      await fetch(base + route, {
        method,
        headers: { 'content-type': 'application/json', ...auth },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    ).json();
  try {
    const ids: string[] = [];
    for (let i = 0; i < SESSIONS; i++) {
      const { id } = await api('POST', '/api/sessions', { title: `S${i}`, provider: 'scripted' });
      await api('PATCH', `/api/sessions/${id}/policy`, {
        agentTools: 'all',
        sessionCreation: 'dont_ask',
      });
      ids.push(id as string);
    }
    // Targets stopped: every message waits in its queue, in flight, as the limits see it.
    for (const id of ids) await api('POST', `/api/sessions/${id}/stop`, {});
    const times: number[] = [];
    let refused = 0;
    const started = now();
    for (let round = 1; round <= ROUNDS; round++) {
      await Promise.all(
        ids.map(async (id, i) => {
          const t = now();
          const target = ids[(i + round) % ids.length];
          const r = await call(id, 'session_message', {
            session: target,
            text: `round ${round}`,
            when: 'queue',
          });
          times.push(now() - t);
          if (!r.ok) refused++;
        }),
      );
    }
    const seconds = (now() - started) / 1000;
    console.log(
      `session_message: ${times.length} calls across ${SESSIONS} sessions in ${seconds.toFixed(2)} s = ${(times.length / seconds).toFixed(0)}/s; p50 ${pct(times, 50).toFixed(1)} ms, p99 ${pct(times, 99).toFixed(1)} ms; refused ${refused}`,
    );

    const parent = ids[0];
    await api('POST', `/api/sessions/${parent}/resume`);
    const before = { ...handler.stats };
    const t = now();
    const results = await Promise.all(
      Array.from({ length: RACE }, (_, i) =>
        call(parent, 'session_create', { first_prompt: `task ${i}` }),
      ),
    );
    const ms = now() - t;
    const commands = handler.stats.commands - before.commands;
    const conflicts = handler.stats.conflicts - before.conflicts;
    console.log(
      `race: ${RACE} concurrent session_create → ${results.filter((r) => r.ok).length} created (limit 3) in ${ms.toFixed(0)} ms; ${commands} commands, ${conflicts} conflicts re-decided (${(conflicts / commands).toFixed(2)} re-decisions per command)`,
    );
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
