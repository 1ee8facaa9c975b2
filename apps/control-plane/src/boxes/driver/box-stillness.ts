import type { BoxControl } from './box-control';
import type { BoxRecord } from './box-record';

/**
 * Freezing and thawing a box, one step at a time per box (its record's queue): a freeze, a
 * thaw and a hold each wait for the one before, so a stop asked for during a hold (a turn
 * snapshot) takes effect after it and is not undone by the hold's own thaw.
 */
export class BoxStillness {
  constructor(private readonly control: BoxControl) {}

  freeze(r: BoxRecord): Promise<void> {
    return serial(r, async () => {
      if (r.info.status !== 'running') return;
      await this.control.freeze(r.procs);
      if (!r.reaped) r.info.status = 'frozen';
    });
  }

  thaw(r: BoxRecord): Promise<void> {
    return serial(r, async () => {
      if (r.info.status !== 'frozen') return;
      await this.control.thaw(r.procs);
      if (!r.reaped) r.info.status = 'running';
    });
  }

  /** `work` with a running box frozen, thawed after; a box not running is left as it is. */
  async hold<T>(r: BoxRecord, work: () => T | Promise<T>): Promise<T> {
    let out: { value: T } | null = null;
    await serial(r, async () => {
      if (r.info.status !== 'running') return void (out = { value: await work() });
      await this.control.freeze(r.procs);
      try {
        out = { value: await work() };
      } finally {
        await this.control.thaw(r.procs);
      }
    });
    return (out as { value: T } | null)!.value;
  }
}

function serial(r: BoxRecord, step: () => Promise<void>): Promise<void> {
  const next = r.queue.then(step);
  r.queue = next.catch(() => undefined);
  return next;
}
