/** Cron schedules: fire on time, in their time zone, refuse bad input, stop when removed. */
import { ErrorCode } from '@sessionboxer/domain';
import { nextOccurrence } from '../../cron';
import { EVERY_SECOND, sleep, uniqueId, type JobsHarness } from '../fixtures';

/** 'HH:MM' of `date` on a wall clock in `timezone`. */
function wallClock(date: Date, timezone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: timezone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(date);
}

export function cronContract(harness: JobsHarness): void {
  describe('cron schedules', () => {
    it('fires a 6-field (seconds) pattern within about a second, and again', async () => {
      const { jobs, fires } = harness.open();
      const id = uniqueId('every-second');
      await jobs.upsertSchedule({ id, cron: EVERY_SECOND });
      const started = Date.now();
      await jobs.start();
      const [first, second] = await fires.waitFor(id, 2, 6000);
      expect(first.kind).toBe('cron');
      expect(first.data).toBeUndefined();
      expect(first.scheduledFor.getTime() % 1000).toBe(0);
      expect(first.scheduledFor.getTime()).toBeGreaterThan(started - 1000);
      expect(first.firedAt.getTime()).toBeGreaterThanOrEqual(first.scheduledFor.getTime());
      expect(second.scheduledFor.getTime()).toBeGreaterThan(first.scheduledFor.getTime());
    });

    it('reads the pattern in its time zone (nextRun, listSchedules)', async () => {
      const { jobs } = harness.open();
      const paris = uniqueId('paris');
      const utc = uniqueId('utc');
      await jobs.upsertSchedule({ id: paris, cron: '0 9 * * *', timezone: 'Europe/Paris' });
      const info = await jobs.upsertSchedule({ id: utc, cron: '0 9 * * *' });
      expect(info).toMatchObject({ id: utc, timezone: 'UTC', skipMissed: true });

      const parisNext = await jobs.nextRun(paris);
      const utcNext = await jobs.nextRun(utc);
      expect(parisNext && wallClock(parisNext, 'Europe/Paris')).toBe('09:00');
      expect(utcNext && wallClock(utcNext, 'UTC')).toBe('09:00');
      expect(parisNext?.getTime()).not.toBe(utcNext?.getTime());
      // Exactly the occurrence the pure helper names, not merely some 09:00.
      const justBefore = new Date((parisNext?.getTime() ?? 0) - 1);
      expect(parisNext).toEqual(nextOccurrence('0 9 * * *', 'Europe/Paris', justBefore));
      expect(parisNext!.getTime() - Date.now()).toBeLessThanOrEqual(25 * 3600_000);

      const listed = await jobs.listSchedules();
      const mine = listed.filter((s) => s.id === paris || s.id === utc);
      expect(mine).toHaveLength(2);
      expect(mine.find((s) => s.id === paris)).toMatchObject({
        cron: '0 9 * * *',
        timezone: 'Europe/Paris',
        nextRunAt: parisNext,
      });
      expect(await jobs.nextRun(uniqueId('unknown'))).toBeNull();
    });

    it.each([
      ['61 * * * *', /61.*expected range 0-59/],
      ['0 9 * *', /has 4 field\(s\); expected 5/],
      ['* * * * * * *', /has 7 field\(s\)/],
      ['every day', /has 2 field\(s\)/],
      ['0 9 * * mon-xyz', /not a valid pattern/],
    ])('refuses the cron pattern %j and says why', async (cron, why) => {
      const { jobs } = harness.open();
      const id = uniqueId('bad-cron');
      const refusal = jobs.upsertSchedule({ id, cron });
      await expect(refusal).rejects.toMatchObject({
        code: ErrorCode.ValidationFailed,
        details: { field: 'cron' },
      });
      await expect(refusal).rejects.toThrow(why);
      expect((await jobs.listSchedules()).map((s) => s.id)).not.toContain(id);
    });

    it('refuses an unknown time zone and says why', async () => {
      const { jobs } = harness.open();
      const id = uniqueId('bad-tz');
      const refusal = jobs.upsertSchedule({ id, cron: '0 9 * * *', timezone: 'Mars/Olympus' });
      await expect(refusal).rejects.toMatchObject({
        code: ErrorCode.ValidationFailed,
        details: { field: 'timezone' },
      });
      await expect(refusal).rejects.toThrow(/"Mars\/Olympus" is not an IANA time zone/);
      expect(await jobs.nextRun(id)).toBeNull();
    });

    it('stops firing once the schedule is removed', async () => {
      const { jobs, fires } = harness.open();
      const id = uniqueId('removed');
      await jobs.upsertSchedule({ id, cron: EVERY_SECOND });
      await jobs.start();
      await fires.waitFor(id, 1, 6000);
      expect(await jobs.removeSchedule(id)).toBe(true);
      const removedAt = Date.now();
      await sleep(2500);
      // A run already being delivered may still land; none due after the removal may.
      const late = fires.of(id).filter((f) => f.scheduledFor.getTime() > removedAt);
      expect(late).toEqual([]);
      expect(await jobs.nextRun(id)).toBeNull();
      expect((await jobs.listSchedules()).map((s) => s.id)).not.toContain(id);
      expect(await jobs.removeSchedule(id)).toBe(false);
    });
  });
}
