/**
 * The skip policy across a restart: close the scheduler, let occurrences pass, open a new
 * instance over the same backing store and boot it as the control plane does (upsert the
 * schedules from the event history, with lastRunAt, then start).
 */
import { previousOccurrence } from '../../cron';
import type { JobFire } from '../../jobs.port';
import { EVERY_SECOND, sleep, uniqueId, type JobsHarness } from '../fixtures';

const YEARLY = '0 0 1 1 *';

/** Runs one instance until it fired, closes it, waits past two occurrences, boots another. */
async function restartAfterMissedRuns(harness: JobsHarness, skipMissed: boolean) {
  const id = uniqueId(skipMissed ? 'skips' : 'catches-up');
  const first = harness.open();
  await first.jobs.upsertSchedule({ id, cron: EVERY_SECOND, skipMissed });
  await first.jobs.start();
  await first.fires.waitFor(id, 1, 6000);
  await first.close();
  const lastRunAt = first.fires.of(id).at(-1)!.scheduledFor;
  await sleep(2500);

  const second = harness.open();
  await second.jobs.upsertSchedule({ id, cron: EVERY_SECOND, skipMissed, lastRunAt });
  const startedAt = Date.now();
  await second.jobs.start();
  const started = Date.now();
  await second.fires.waitFor(id, 2, 6000);
  await sleep(300);
  return { id, lastRunAt, startedAt, started, second };
}

function times(fires: JobFire[]): number[] {
  return fires.map((f) => f.scheduledFor.getTime());
}

export function restartContract(harness: JobsHarness): void {
  describe('restarts and the skip policy', () => {
    it('skips runs missed while down (skipMissed, the default): next is in the future', async () => {
      const { id, startedAt, second } = await restartAfterMissedRuns(harness, true);
      const fires = second.fires.of(id);
      expect(times(fires).filter((t) => t < startedAt)).toEqual([]);
      expect(new Set(times(fires)).size).toBe(fires.length);
      expect(second.logger.lines.join('\n')).toMatch(new RegExp(`skipped .*${id}`));
    });

    it('fires the single most recent missed run once with skipMissed: false', async () => {
      const { id, lastRunAt, startedAt, started, second } = await restartAfterMissedRuns(
        harness,
        false,
      );
      const fires = second.fires.of(id);
      const caughtUp = fires.filter((f) => f.scheduledFor.getTime() <= started);
      expect(caughtUp).toHaveLength(1);
      const at = caughtUp[0].scheduledFor.getTime();
      expect(at).toBeGreaterThan(lastRunAt.getTime() + 1000);
      // The most recent occurrence before the restart, not the first one missed.
      expect(at).toBeGreaterThan(startedAt - 1000 - 50);
      expect(fires[0]).toBe(caughtUp[0]);
      expect(new Set(times(fires)).size).toBe(fires.length);
    });

    it('fires at start a one-shot that fell due while down', async () => {
      const id = uniqueId('due-while-down');
      const runAt = new Date(Date.now() + 800);
      const first = harness.open();
      await first.jobs.schedule({ id, runAt, data: { approvalId: 'a7' } });
      await first.jobs.start();
      await first.close();
      await sleep(1500);
      expect(first.fires.of(id)).toEqual([]);

      const second = harness.open();
      await second.jobs.schedule({ id, runAt, data: { approvalId: 'a7' } });
      const startedAt = Date.now();
      await second.jobs.start();
      const [fire] = await second.fires.waitFor(id, 1, 5000);
      expect(fire).toMatchObject({ kind: 'delayed', id, data: { approvalId: 'a7' } });
      expect(fire.scheduledFor).toEqual(runAt);
      expect(fire.firedAt.getTime()).toBeGreaterThanOrEqual(startedAt);
      await sleep(800);
      expect(second.fires.of(id)).toHaveLength(1);
    });

    it('catches up from lastRunAt a schedule it did not hold, once, if skipMissed is false', async () => {
      const { jobs, fires, logger } = harness.open();
      const now = new Date();
      const lastRunAt = new Date(now.getTime() - 2 * 366 * 86_400_000);
      const catches = uniqueId('yearly-catch-up');
      const skips = uniqueId('yearly-skip');
      await jobs.upsertSchedule({ id: catches, cron: YEARLY, skipMissed: false, lastRunAt });
      await jobs.upsertSchedule({ id: skips, cron: YEARLY, lastRunAt });
      await jobs.start();
      const [fire] = await fires.waitFor(catches, 1, 5000);
      expect(fire.scheduledFor).toEqual(previousOccurrence(YEARLY, 'UTC', now));
      await sleep(800);
      expect(fires.of(catches)).toHaveLength(1);
      expect(fires.of(skips)).toEqual([]);
      expect(logger.lines.join('\n')).toMatch(new RegExp(`skipped .*${skips}`));
    });

    it('does not catch up again when a schedule it holds is upserted again', async () => {
      const { jobs, fires } = harness.open();
      const id = uniqueId('re-upserted');
      const lastRunAt = new Date(Date.now() - 2 * 366 * 86_400_000);
      await jobs.start();
      await jobs.upsertSchedule({ id, cron: YEARLY, skipMissed: false, lastRunAt });
      await fires.waitFor(id, 1, 5000);
      await jobs.upsertSchedule({ id, cron: YEARLY, skipMissed: false, lastRunAt });
      await sleep(1000);
      expect(fires.of(id)).toHaveLength(1);
    });
  });
}
