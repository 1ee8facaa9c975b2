/**
 * The BullMQ adapter against the shared contract, on a real redis-server this file starts
 * (never the machine's 6379), then what only a Redis-backed adapter can do: keep schedules
 * across a restart, and notice when Redis lost them.
 */
import { randomUUID } from 'node:crypto';
import { BullmqJobs } from './bullmq-jobs';
import { previousOccurrence } from './cron';
import type { JobsLogger } from './jobs.port';
import {
  CapturingLogger,
  EVERY_SECOND,
  FireRecorder,
  sleep,
  uniqueId,
  until,
} from './test/fixtures';
import { CONTRACT_RETRY, describeJobsContract } from './test/jobs.contract';
import { startTestRedis, type TestRedis } from './test/redis-server';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  await redis?.stop();
});

function open(prefix: string, logger: JobsLogger = new CapturingLogger()): BullmqJobs {
  return new BullmqJobs({
    url: redis.url,
    prefix,
    logger,
    retry: CONTRACT_RETRY,
    missedToleranceMs: 300,
    dataLossCheckMs: 200,
  });
}

// Each test gets its own key prefix: a restart reopens the same prefix in the same Redis.
describeJobsContract('BullmqJobs', () => {
  const prefix = `contract-${randomUUID()}`;
  return Promise.resolve({
    open: (logger) => open(prefix, logger),
    cleanup: () => Promise.resolve(),
  });
});

describe('BullmqJobs (Redis only)', () => {
  const opened: BullmqJobs[] = [];
  const track = (jobs: BullmqJobs, fires = new FireRecorder()) => {
    opened.push(jobs);
    jobs.onFire(fires.handler);
    return fires;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((j) => j.close()));
  });

  it('keeps schedules and one-shots across a restart without being told again', async () => {
    const prefix = `restart-${randomUUID()}`;
    const id = uniqueId('kept');
    const first = open(prefix);
    opened.push(first);
    await first.upsertSchedule({ id, cron: EVERY_SECOND, timezone: 'Europe/Paris' });
    const expiry = uniqueId('kept-expiry');
    const runAt = new Date(Date.now() + 1500);
    await first.schedule({ id: expiry, runAt, data: { approvalId: 'a9' } });
    await first.close();

    const second = open(prefix);
    const fires = track(second);
    const listed = await second.listSchedules();
    expect(listed).toEqual([
      expect.objectContaining({
        id,
        cron: EVERY_SECOND,
        timezone: 'Europe/Paris',
        skipMissed: true,
      }),
    ]);
    await second.start();
    await fires.waitFor(id, 2, 6000);
    const [fire] = await fires.waitFor(expiry, 1, 5000);
    expect(fire).toMatchObject({
      kind: 'delayed',
      scheduledFor: runAt,
      data: { approvalId: 'a9' },
    });
  });

  it('keeps instances with different prefixes apart', async () => {
    const id = uniqueId('same-id');
    const a = open(`a-${randomUUID()}`);
    const b = open(`b-${randomUUID()}`);
    opened.push(a, b);
    await a.upsertSchedule({ id, cron: '0 9 * * *' });
    expect((await a.listSchedules()).map((s) => s.id)).toEqual([id]);
    expect(await b.listSchedules()).toEqual([]);
    expect(await b.nextRun(id)).toBeNull();
  });

  it('notices that Redis lost its data, and rebuild() restores firing', async () => {
    const logger = new CapturingLogger();
    const jobs = open(`flush-${randomUUID()}`, logger);
    const fires = track(jobs);
    const id = uniqueId('flushed');
    const schedule = { id, cron: EVERY_SECOND };
    const expiry = { id: uniqueId('expiry'), runAt: new Date(Date.now() + 60_000) };
    await jobs.upsertSchedule(schedule);
    await jobs.schedule(expiry);
    let lost = 0;
    jobs.onDataLost(() => {
      lost++;
    });
    await jobs.start();
    await fires.waitFor(id, 1, 6000);
    expect(await jobs.dataLost()).toBe(false);

    await redis.flushAll();
    expect(await jobs.listSchedules()).toEqual([]);
    await until(
      () => lost === 1,
      3000,
      () => `onDataLost, called ${lost} times`,
    );
    expect(logger.lines.join('\n')).toMatch(/Redis lost the jobs data/);
    const flushedAt = Date.now();
    await sleep(1500);
    expect(fires.of(id).filter((f) => f.scheduledFor.getTime() > flushedAt)).toEqual([]);

    // What the event history holds; the one-shot is now due, as a missed expiry would be.
    const dueExpiry = { ...expiry, runAt: new Date(Date.now() - 1000) };
    await jobs.rebuild({ schedules: [schedule], delayed: [dueExpiry] });
    expect((await jobs.listSchedules()).map((s) => s.id)).toEqual([id]);
    const rebuiltAt = Date.now();
    await until(
      () => fires.of(id).some((f) => f.scheduledFor.getTime() > rebuiltAt),
      5000,
      () => `a cron fire after rebuild, got ${JSON.stringify(fires.of(id))}`,
    );
    await fires.waitFor(expiry.id, 1, 5000);
    expect(lost).toBe(1);
  });

  it('after a loss, rebuild catches up the missed run of a skipMissed: false schedule', async () => {
    const jobs = open(`lost-catch-up-${randomUUID()}`);
    const fires = track(jobs);
    const id = uniqueId('daily');
    await jobs.start();
    await redis.flushAll();
    const lastRunAt = new Date(Date.now() - 3 * 86_400_000);
    await jobs.rebuild({
      schedules: [{ id, cron: '30 4 * * *', skipMissed: false, lastRunAt }],
      delayed: [],
    });
    const [fire] = await fires.waitFor(id, 1, 5000);
    expect(fire.scheduledFor).toEqual(previousOccurrence('30 4 * * *', 'UTC', new Date()));
    await sleep(800);
    expect(fires.of(id)).toHaveLength(1);
  });
});
