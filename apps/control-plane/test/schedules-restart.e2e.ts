import * as fs from 'node:fs';
import { scheduleDecider, scheduleStream } from '@sessionboxer/domain';
import { CommandBus } from '../src/infrastructure/command-bus';
import { startTestRedis, type TestRedis } from '../src/jobs/test/redis-server';
import { waitFor } from './box-kit';
import { signIn, startApp, tempDataDir, type RunningApp } from './harness';
import { callTool, createSession, promptsFrom, schedule, sleep } from './schedule-kit';

/** What the jobs adapter is told from the event history: at a restart, and after Redis lost it. */
describe('scheduled tasks across restarts and a flushed Redis', () => {
  const opened: RunningApp[] = [];
  let redis: TestRedis | undefined;
  const dirs: string[] = [];
  afterEach(async () => {
    for (const api of opened.splice(0)) await api.close();
    await redis?.stop();
    redis = undefined;
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  const start = async (dir: string, env: Record<string, string> = {}) => {
    const api = await startApp(dir, env);
    opened.push(api);
    return api;
  };

  it('skips a run missed while down (the skip policy), and catches it up when told not to', async () => {
    const dir = tempDataDir();
    dirs.push(dir);
    const first = await start(dir);
    const target = await createSession(first, 'Target');
    // Created long ago (metadata `at` in 2020): a yearly run fell due while nothing ran.
    const bus = first.app.get(CommandBus);
    for (const [scheduleId, skipMissed] of [
      ['skip', true],
      ['catch-up', false],
    ] as const) {
      await bus.execute(scheduleDecider, scheduleStream(scheduleId), {
        type: 'CreateSchedule',
        data: {
          scheduleId,
          name: scheduleId,
          cron: '0 0 1 1 *',
          timezone: 'UTC',
          action: { type: 'prompt', sessionId: target, text: `from ${scheduleId}` },
          skipMissed,
          createdBy: null,
        },
        metadata: {
          ...bus.metadata({ kind: 'person', id: 'ada' }),
          at: '2020-06-01T00:00:00.000Z',
        },
      });
    }
    await first.close();
    opened.splice(0);

    const second = await start(dir);
    await waitFor(
      'the caught-up run',
      async () => (await schedule(second, 'catch-up'))?.lastRunAt,
      10_000,
    );
    await sleep(1000);
    expect(await promptsFrom(second, target, 'catch-up')).toHaveLength(1);
    expect(await promptsFrom(second, target, 'skip')).toHaveLength(0);
    expect((await schedule(second, 'skip')).lastRunAt).toBeNull();
  });

  it('keeps firing on BullMQ after FLUSHALL wiped Redis', async () => {
    redis = await startTestRedis();
    const dir = tempDataDir();
    dirs.push(dir);
    const api = await start(dir, { REDIS_URL: redis.url });
    const lead = await createSession(api, 'Lead');
    const { id } = await callTool(api, lead, 'schedule_create', {
      cron: '*/2 * * * * *',
      action: { type: 'prompt', text: 'Tick' },
    });
    await waitFor('a run on BullMQ', async () => (await schedule(api, id))?.lastRunAt, 10_000);

    await redis.flushAll();
    const flushedAt = new Date().toISOString();
    // Sign-ins are shared state in the same Redis: the flush signed everyone out (SCALING.md).
    expect((await api.request('GET', '/api/schedules')).status).toBe(401);
    const { username, password } = api.credentials;
    api.authHeaders.authorization = `Bearer ${await signIn(api.url, username, password)}`;
    await waitFor(
      'a run after the flush',
      async () => ((await schedule(api, id))?.lastRunAt ?? '') > flushedAt,
      25_000,
    );
    const prompts = await promptsFrom(api, lead, id);
    expect(prompts.length).toBeGreaterThanOrEqual(2);
  }, 60_000);
});
