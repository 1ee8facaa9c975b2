/** Deadlines beyond setTimeout's 2^31 - 1 ms limit, under Jest's fake clock. */
import { MAX_TIMER_MS, timerAt } from './long-timer';

describe('timerAt', () => {
  beforeEach(() => jest.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') }));
  afterEach(() => jest.useRealTimers());

  it('waits 60 days through a chain of timers, none longer than 2^31 - 1 ms', () => {
    const spy = jest.spyOn(global, 'setTimeout');
    const fired = jest.fn();
    const sixtyDays = 60 * 86_400_000;
    timerAt(new Date(Date.now() + sixtyDays), fired);
    jest.advanceTimersByTime(sixtyDays - 1);
    expect(fired).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(fired).toHaveBeenCalledTimes(1);
    const delays = spy.mock.calls.map((call) => call[1] ?? 0);
    expect(delays.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...delays)).toBeLessThanOrEqual(MAX_TIMER_MS);
    spy.mockRestore();
  });

  it('fires a past deadline on the next tick, not inside the call', () => {
    const fired = jest.fn();
    timerAt(new Date(Date.now() - 5000), fired);
    expect(fired).not.toHaveBeenCalled();
    jest.advanceTimersByTime(0);
    expect(fired).toHaveBeenCalledTimes(1);
  });

  it('never fires once cancelled, even mid-chain', () => {
    const fired = jest.fn();
    const timer = timerAt(new Date(Date.now() + 2 * MAX_TIMER_MS + 10), fired);
    jest.advanceTimersByTime(MAX_TIMER_MS + 5);
    timer.cancel();
    jest.advanceTimersByTime(2 * MAX_TIMER_MS);
    expect(fired).not.toHaveBeenCalled();
  });
});
