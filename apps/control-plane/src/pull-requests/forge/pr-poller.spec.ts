import { FakeForge, item } from '../../../test/github-double/fake-forge';
import { ForgeError, ForgeItem, ForgePr, prId } from './forge.port';
import { AttachedPr, PrPoller } from './pr-poller';

const INTERVAL = 60_000;
const A = { owner: 'octo', repo: 'app', number: 1 };
const B = { owner: 'octo', repo: 'app', number: 2 };

let forge: FakeForge | null;
let attached: AttachedPr[];
let updates: Array<{ sessionId: string; pr: string; items: string[] }>;
let logs: string[];
let onUpdate: jest.Mock<Promise<void>, [string, ForgePr, ForgeItem[]]>;
let poller: PrPoller;

const logger = {
  log: (m: string) => logs.push(`log ${m}`),
  warn: (m: string) => logs.push(`warn ${m}`),
  error: (m: string) => logs.push(`error ${m}`),
};
const tick = (ms = 0) => jest.advanceTimersByTimeAsync(ms);

beforeEach(() => {
  jest.useFakeTimers({ now: new Date('2024-05-01T12:00:00Z') });
  forge = new FakeForge();
  attached = [{ sessionId: 's1', ...A }];
  updates = [];
  logs = [];
  onUpdate = jest.fn((sessionId: string, pr: ForgePr, items: ForgeItem[]) => {
    updates.push({ sessionId, pr: prId(pr), items: items.map((i) => i.id) });
    return Promise.resolve();
  });
  poller = new PrPoller({
    forge: () => forge,
    intervalMs: INTERVAL,
    listAttached: () => Promise.resolve(attached),
    onUpdate,
    logger,
  });
});

afterEach(async () => {
  forge?.release();
  await poller.stop();
  expect(jest.getTimerCount()).toBe(0);
  jest.useRealTimers();
});

describe('rounds', () => {
  it('polls at once, then intervalMs after each round, delivering only what changed', async () => {
    forge!.items.set('octo/app#1', [item('rc-1')]);
    poller.start();
    await tick();
    expect(updates).toEqual([{ sessionId: 's1', pr: 'octo/app#1', items: ['rc-1'] }]);

    await tick(INTERVAL);
    expect(forge!.calls).toHaveLength(2);
    expect(updates).toHaveLength(1); // nothing new

    forge!.items.set('octo/app#1', [item('rc-1'), item('rc-2')]);
    await tick(INTERVAL);
    expect(updates[1]).toEqual({ sessionId: 's1', pr: 'octo/app#1', items: ['rc-1', 'rc-2'] });
  });

  it('reads a PR attached to several sessions once per round, for all of them', async () => {
    attached = [
      { sessionId: 's1', ...A },
      { sessionId: 's2', ...A, owner: 'OCTO' },
      { sessionId: 's2', ...B },
    ];
    poller.start();
    await tick();
    expect(forge!.calls).toEqual(['octo/app#1', 'octo/app#2']);
    expect(updates.map((u) => `${u.sessionId} ${u.pr}`)).toEqual([
      's1 octo/app#1',
      's2 octo/app#1',
      's2 octo/app#2',
    ]);
  });

  it('polls one PR after another and starts the next round only after the last ended', async () => {
    attached = [
      { sessionId: 's1', ...A },
      { sessionId: 's1', ...B },
    ];
    forge!.hold();
    poller.start();
    await tick(INTERVAL * 3);
    expect(forge!.calls).toEqual(['octo/app#1']);
    forge!.release();
    await tick();
    expect(forge!.calls).toEqual(['octo/app#1', 'octo/app#2']);
    expect(forge!.maxInFlight).toBe(1);
    await tick(INTERVAL - 1);
    expect(forge!.calls).toHaveLength(2);
    await tick(1);
    expect(forge!.calls).toHaveLength(4);
  });
});

describe('pollNow', () => {
  beforeEach(() => {
    attached = [
      { sessionId: 's1', ...A },
      { sessionId: 's2', ...A },
      { sessionId: 's2', ...B },
    ];
  });

  it("polls one session's PRs", async () => {
    await poller.pollNow('s2');
    expect(forge!.calls).toEqual(['octo/app#1', 'octo/app#2']);
    expect(updates.map((u) => u.sessionId)).toEqual(['s2', 's2']);
  });

  it('polls one PR for every session it is attached to (a webhook), names case-insensitive', async () => {
    await poller.pollNow(undefined, { owner: 'Octo', repo: 'App', number: 1 });
    expect(forge!.calls).toEqual(['octo/app#1']);
    expect(updates.map((u) => u.sessionId)).toEqual(['s1', 's2']);
  });

  it('never polls one PR twice at once: asks during a poll share one poll after it', async () => {
    forge!.hold();
    const first = poller.pollNow(undefined, A);
    await tick();
    const asks = [poller.pollNow('s1', A), poller.pollNow('s2', A), poller.pollNow(undefined, A)];
    await tick();
    expect(forge!.calls).toEqual(['octo/app#1']);
    forge!.release();
    await Promise.all([first, ...asks]);
    expect(forge!.calls).toEqual(['octo/app#1', 'octo/app#1']);
    expect(forge!.maxInFlight).toBe(1);
  });

  it('does nothing without a forge, and says so once', async () => {
    forge = null;
    await poller.pollNow();
    await poller.pollNow();
    expect(logs).toEqual([
      'warn PR polling: no forge configured (no GitHub token?); PRs are not polled',
    ]);
    expect(updates).toEqual([]);
  });
});

describe('failures', () => {
  it('pauses every poll on RATE_LIMITED until the reset, then goes on', async () => {
    attached = [
      { sessionId: 's1', ...A },
      { sessionId: 's1', ...B },
    ];
    const retryAt = new Date(Date.now() + 5 * INTERVAL);
    forge!.failures.set('octo/app#1', new ForgeError('RATE_LIMITED', 'limit', { retryAt }));
    poller.start();
    await tick();
    expect(forge!.calls).toEqual(['octo/app#1']); // B is not even tried
    expect(logs).toEqual([`warn PR polling paused until ${retryAt.toISOString()}: limit`]);

    forge!.failures.clear();
    await poller.pollNow(undefined, B); // a webhook during the pause
    await tick(4 * INTERVAL);
    expect(forge!.calls).toEqual(['octo/app#1']);

    await tick(INTERVAL);
    expect(forge!.calls).toEqual(['octo/app#1', 'octo/app#1', 'octo/app#2']);
    expect(updates).toHaveLength(2);
  });

  it('logs a failing PR once, keeps polling the others, and says when it answers again', async () => {
    attached = [
      { sessionId: 's1', ...A },
      { sessionId: 's1', ...B },
    ];
    forge!.failures.set('octo/app#1', new ForgeError('NOT_FOUND', 'GitHub answered 404'));
    poller.start();
    await tick();
    await tick(INTERVAL);
    expect(updates.map((u) => u.pr)).toEqual(['octo/app#2']);
    expect(logs).toEqual(['warn PR polling: octo/app#1: GitHub answered 404']);

    forge!.failures.clear();
    await tick(INTERVAL);
    expect(logs[1]).toBe('log PR polling: octo/app#1 answers again');
    expect(updates.map((u) => u.pr)).toEqual(['octo/app#2', 'octo/app#1']);
  });

  it('logs a failed onUpdate and delivers again next round', async () => {
    onUpdate.mockRejectedValueOnce(new Error('store closed'));
    poller.start();
    await tick();
    expect(logs[0]).toMatch(
      /^error PR polling: updating session s1 with octo\/app#1 failed: Error: store closed/,
    );
    await tick(INTERVAL);
    expect(onUpdate).toHaveBeenCalledTimes(2); // the first call failed before recording
    expect(updates).toEqual([{ sessionId: 's1', pr: 'octo/app#1', items: [] }]);
  });

  it('logs a failed listing and still runs the next round', async () => {
    const listAttached = jest.fn().mockRejectedValueOnce(new Error('db gone'));
    listAttached.mockResolvedValue(attached);
    poller = new PrPoller({
      forge: () => forge,
      intervalMs: INTERVAL,
      listAttached,
      onUpdate,
      logger,
    });
    poller.start();
    await tick();
    expect(logs).toEqual(['error PR polling: could not list the attached PRs: db gone']);
    await tick(INTERVAL);
    expect(updates).toHaveLength(1);
  });
});

describe('stop', () => {
  it('clears its timer and never schedules again', async () => {
    poller.start();
    await tick();
    expect(jest.getTimerCount()).toBe(1);
    await poller.stop();
    expect(jest.getTimerCount()).toBe(0);
    await tick(INTERVAL * 5);
    expect(forge!.calls).toHaveLength(1);
  });

  it('waits for a running poll, delivers nothing after, and leaves no timer behind', async () => {
    forge!.hold();
    poller.start();
    await tick();
    const stopped = poller.stop();
    forge!.release();
    await stopped;
    expect(updates).toEqual([]);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('can start again after a stop', async () => {
    poller.start();
    await tick();
    await poller.stop();
    poller.start();
    await tick();
    expect(forge!.calls).toHaveLength(2);
  });
});
