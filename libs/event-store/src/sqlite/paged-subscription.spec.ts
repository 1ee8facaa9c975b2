/**
 * The subscription's reading discipline, over an in-memory page reader: it pulls one page at a
 * time as the consumer asks, and its mark-then-read protocol never sleeps through a commit.
 */
import type { RecordedEvent } from '../event-store.port';
import { ChangeNotifier } from './change-notifier';
import { PagedSubscription, type PageReader } from './paged-subscription';

function events(count: number): RecordedEvent[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    type: 'Happened',
    data: {},
    metadata: {
      commandId: 'c',
      correlationId: 'c',
      causationId: 'c',
      actor: { kind: 'system', id: 't' },
      at: '2026-01-01T00:00:00.000Z',
    },
    streamName: 'test-1',
    revision: i,
    position: i + 1,
    recordedAt: '2026-01-01T00:00:00.000Z',
  }));
}

/** A log and a reader over it that records every page it is asked for. */
function source(initial: number) {
  const log = events(initial);
  const reads: { cursor: number; limit: number }[] = [];
  const read: PageReader = (cursor, limit) => {
    reads.push({ cursor, limit });
    return log.filter((e) => e.position > cursor).slice(0, limit);
  };
  return { log, reads, read };
}

function subscribe(read: PageReader, notifier: ChangeNotifier): PagedSubscription {
  return new PagedSubscription(
    read,
    0,
    (e) => e.position,
    notifier,
    () => undefined,
  );
}

async function within<T>(p: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), ms)));
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

it('reads a page only when the consumer has taken the previous one', async () => {
  const { reads, read } = source(1200);
  const notifier = new ChangeNotifier(() => 0, 1000);
  const sub = subscribe(read, notifier);
  const it = sub[Symbol.asyncIterator]();
  await it.next();
  expect(reads).toHaveLength(1);
  for (let i = 1; i < 500; i++) await it.next();
  expect(reads).toHaveLength(1);
  expect((await it.next()).value).toMatchObject({ position: 501 });
  expect(reads).toEqual([
    { cursor: 0, limit: 500 },
    { cursor: 500, limit: 500 },
  ]);
  await sub.close();
});

it('does not sleep through a commit that lands between its read and its wait', async () => {
  const { log, read } = source(0);
  const notifier = new ChangeNotifier(() => 0, 60_000);
  let first = true;
  const racing: PageReader = (cursor, limit, mark) => {
    const page = read(cursor, limit, mark);
    if (first) {
      // Another append commits right after this read returned nothing.
      first = false;
      log.push(...events(1));
      notifier.notify();
    }
    return page;
  };
  const sub = subscribe(racing, notifier);
  const next = await within(sub[Symbol.asyncIterator]().next(), 1000);
  expect(next).toMatchObject({ done: false, value: { position: 1 } });
  await sub.close();
});

it('notices commits by another process through data_version polling', async () => {
  const { log, read } = source(0);
  let dataVersion = 1;
  const notifier = new ChangeNotifier(() => dataVersion, 10);
  const sub = subscribe(read, notifier);
  const pending = sub[Symbol.asyncIterator]().next();
  log.push(...events(1));
  dataVersion = 2;
  expect(await within(pending, 1000)).toMatchObject({ done: false, value: { position: 1 } });
  await sub.close();
  notifier.close();
});

it('ends a waiting iteration on close', async () => {
  const { read } = source(0);
  const notifier = new ChangeNotifier(() => 0, 10);
  const sub = subscribe(read, notifier);
  const pending = sub[Symbol.asyncIterator]().next();
  await sub.close();
  expect(await within(pending, 1000)).toEqual({ value: undefined, done: true });
});
