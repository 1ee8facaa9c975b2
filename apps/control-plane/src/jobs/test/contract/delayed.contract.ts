/** Delayed one-shots: fire once at or after runAt, replaced by id, cancelled; retried handlers. */
import { sleep, uniqueId, until, type JobsHarness } from '../fixtures';
import type { JobFire } from '../../jobs.port';

export function delayedContract(harness: JobsHarness): void {
  describe('delayed one-shot jobs', () => {
    it('fires once, at or after runAt, with its data', async () => {
      const { jobs, fires } = harness.open();
      const id = uniqueId('expiry');
      const runAt = new Date(Date.now() + 800);
      await jobs.schedule({ id, runAt, data: { approvalId: 'a1', n: 2 } });
      await jobs.start();
      const [fire] = await fires.waitFor(id, 1, 5000);
      expect(fire).toMatchObject({ kind: 'delayed', id, data: { approvalId: 'a1', n: 2 } });
      expect(fire.scheduledFor).toEqual(runAt);
      expect(fire.firedAt.getTime()).toBeGreaterThanOrEqual(runAt.getTime());
      await sleep(1500);
      expect(fires.of(id)).toHaveLength(1);
    });

    it('replaces a pending job scheduled again under the same id', async () => {
      const { jobs, fires } = harness.open();
      const id = uniqueId('replaced');
      await jobs.start();
      await jobs.schedule({ id, runAt: new Date(Date.now() + 500), data: { v: 1 } });
      const secondRunAt = new Date(Date.now() + 1500);
      await jobs.schedule({ id, runAt: secondRunAt, data: { v: 2 } });
      await fires.waitFor(id, 1, 5000);
      await sleep(1000);
      expect(fires.of(id)).toHaveLength(1);
      expect(fires.of(id)[0]).toMatchObject({ data: { v: 2 }, scheduledFor: secondRunAt });
      expect(fires.of(id)[0].firedAt.getTime()).toBeGreaterThanOrEqual(secondRunAt.getTime());
    });

    it('does not fire a cancelled job (and still fires the others)', async () => {
      const { jobs, fires } = harness.open();
      const cancelled = uniqueId('cancelled');
      const kept = uniqueId('kept');
      const runAt = new Date(Date.now() + 700);
      await jobs.schedule({ id: cancelled, runAt });
      await jobs.schedule({ id: kept, runAt });
      await jobs.start();
      expect(await jobs.cancel(cancelled)).toBe(true);
      expect(await jobs.cancel(cancelled)).toBe(false);
      await fires.waitFor(kept, 1, 5000);
      await sleep(1000);
      expect(fires.of(cancelled)).toEqual([]);
    });

    it('retries a handler that throws, with backoff, and logs each failure', async () => {
      const { jobs, logger } = harness.open();
      const id = uniqueId('flaky');
      const calls: { fire: JobFire; at: number }[] = [];
      jobs.onFire((fire) => {
        if (fire.id !== id) return Promise.resolve();
        calls.push({ fire, at: Date.now() });
        if (calls.length < 3) return Promise.reject(new Error(`flaky failure ${calls.length}`));
        return Promise.resolve();
      });
      const runAt = new Date(Date.now() + 200);
      await jobs.schedule({ id, runAt, data: { x: 1 } });
      await jobs.start();
      await until(
        () => calls.length >= 3,
        8000,
        () => `3 calls, got ${calls.length}`,
      );
      await sleep(800);
      expect(calls).toHaveLength(3);
      for (const { fire } of calls) expect(fire).toMatchObject({ id, scheduledFor: runAt });
      // CONTRACT_RETRY: 100 ms, then 200 ms (timers may be a little early or late).
      expect(calls[1].at - calls[0].at).toBeGreaterThanOrEqual(80);
      expect(calls[2].at - calls[1].at).toBeGreaterThanOrEqual(160);
      const failures = logger.lines.filter((l) => l.includes(id) && /handler failed/.test(l));
      expect(failures.join('\n')).toMatch(/flaky failure 1/);
      expect(failures.join('\n')).toMatch(/flaky failure 2/);
    });

    it('gives up after the last attempt and logs it as an error', async () => {
      const { jobs, logger } = harness.open();
      const id = uniqueId('broken');
      let calls = 0;
      jobs.onFire((fire) => {
        if (fire.id !== id) return Promise.resolve();
        calls++;
        return Promise.reject(new Error('always broken'));
      });
      await jobs.schedule({ id, runAt: new Date() });
      await jobs.start();
      const gaveUp = () => logger.lines.some((l) => l.startsWith('error:') && l.includes(id));
      await until(gaveUp, 8000, () => `an error line, got ${JSON.stringify(logger.lines)}`);
      await sleep(800);
      expect(calls).toBe(3);
      expect(logger.lines.find((l) => l.startsWith('error:'))).toMatch(/giving up: always broken/);
    });
  });
}
