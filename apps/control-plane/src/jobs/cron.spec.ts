/** The pure cron helpers both adapters share: fixed dates, no clock. */
import { ErrorCode } from '@sessionboxer/domain';
import {
  checkCron,
  checkTimezone,
  lastMissedOccurrence,
  nextOccurrence,
  previousOccurrence,
} from './cron';

const at = (iso: string) => new Date(iso);

describe('nextOccurrence', () => {
  describe('0 9 * * * across the spring DST change (Europe/Paris, 29 March 2026)', () => {
    it('is 08:00 UTC while Paris is on CET (UTC+1)', () => {
      const next = nextOccurrence('0 9 * * *', 'Europe/Paris', at('2026-03-28T06:00:00Z'));
      expect(next).toEqual(at('2026-03-28T08:00:00Z'));
    });

    it('is 07:00 UTC once Paris is on CEST (UTC+2)', () => {
      const next = nextOccurrence('0 9 * * *', 'Europe/Paris', at('2026-03-28T08:00:00Z'));
      expect(next).toEqual(at('2026-03-29T07:00:00Z'));
    });

    it('stays 09:00 UTC in UTC on both days', () => {
      expect(nextOccurrence('0 9 * * *', 'UTC', at('2026-03-28T06:00:00Z'))).toEqual(
        at('2026-03-28T09:00:00Z'),
      );
      expect(nextOccurrence('0 9 * * *', 'UTC', at('2026-03-29T06:00:00Z'))).toEqual(
        at('2026-03-29T09:00:00Z'),
      );
    });
  });

  it('goes back to 08:00 UTC after the autumn change (25 October 2026)', () => {
    const next = nextOccurrence('0 9 * * *', 'Europe/Paris', at('2026-10-24T08:00:00Z'));
    expect(next).toEqual(at('2026-10-25T08:00:00Z'));
  });

  it('is strictly after `after`, to the second with 6 fields', () => {
    const after = at('2026-01-01T00:00:05.000Z');
    expect(nextOccurrence('*/5 * * * * *', 'UTC', after)).toEqual(at('2026-01-01T00:00:10Z'));
    expect(nextOccurrence('0 0 * * *', 'UTC', after)).toEqual(at('2026-01-02T00:00:00Z'));
  });

  it('does not depend on the machine time zone', () => {
    const before = process.env.TZ;
    // Node re-reads TZ when it changes, so Date's local time is New York's here.
    process.env.TZ = 'America/New_York';
    try {
      const next = nextOccurrence('0 9 * * *', 'Asia/Tokyo', at('2026-06-01T00:00:00Z'));
      // 09:00 in Tokyo is 00:00 UTC; `after` is exactly one, so the next is a day later.
      expect(next).toEqual(at('2026-06-02T00:00:00Z'));
    } finally {
      process.env.TZ = before;
    }
  });
});

describe('previousOccurrence and lastMissedOccurrence', () => {
  it('counts an occurrence exactly at the bound as passed', () => {
    const now = at('2026-01-01T09:00:00Z');
    expect(previousOccurrence('0 9 * * *', 'UTC', now)).toEqual(now);
  });

  it('names the most recent missed run, not the first', () => {
    const missed = lastMissedOccurrence(
      '0 9 * * *',
      'UTC',
      at('2026-01-01T09:00:00Z'),
      at('2026-01-04T12:00:00Z'),
    );
    expect(missed).toEqual(at('2026-01-04T09:00:00Z'));
  });

  it('is null when nothing fell between lastRunAt and now', () => {
    expect(
      lastMissedOccurrence(
        '0 9 * * *',
        'UTC',
        at('2026-01-01T09:00:00Z'),
        at('2026-01-02T08:59:59Z'),
      ),
    ).toBeNull();
  });
});

describe('checks', () => {
  it.each(['0 9 * * *', '*/1 * * * * *', '0 0 9 * * 1-5'])('accepts %j', (cron) => {
    expect(checkCron(cron)).toBe(cron);
  });

  it('refuses with a DomainError naming the field', () => {
    expect(() => checkCron('0 9 * *')).toThrow(
      expect.objectContaining({ code: ErrorCode.ValidationFailed, details: { field: 'cron' } }),
    );
    expect(() => checkTimezone('Europe/Nowhere')).toThrow(
      expect.objectContaining({ code: ErrorCode.ValidationFailed, details: { field: 'timezone' } }),
    );
  });
});
