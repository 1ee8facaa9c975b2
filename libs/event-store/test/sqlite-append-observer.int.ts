/** The SQLite store tells its AppendObserver of each group commit and each append. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConcurrencyError, type AppendObserver } from '@sessionboxer/event-store';
import { SqliteEventStore } from '@sessionboxer/event-store/sqlite';
import { caught, newEvents, uniqueStream } from './contract/fixtures';

describe('the SQLite store’s append observer', () => {
  let dir: string;
  let store: SqliteEventStore;
  const commits: [number, number][] = [];
  const appends: { seconds: number; ok: boolean }[] = [];
  const observer: AppendObserver = {
    committed: (a, e) => commits.push([a, e]),
    appended: (seconds, ok) => appends.push({ seconds, ok }),
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sb-es-observer-'));
    store = SqliteEventStore.open({ path: join(dir, 'events.sqlite'), observer });
    commits.length = 0;
    appends.length = 0;
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('tells one commit of the batch with its appends and events, and each append', async () => {
    await Promise.all([
      store.appendToStream(uniqueStream(), newEvents(2)),
      store.appendToStream(uniqueStream(), newEvents(3)),
      store.appendToStream(uniqueStream(), newEvents(1)),
    ]);
    expect(commits).toEqual([[3, 6]]);
    expect(appends.map((a) => a.ok)).toEqual([true, true, true]);
    expect(appends.every((a) => a.seconds >= 0 && a.seconds < 60)).toBe(true);
  });

  it('tells a refused append as not ok, and no commit when nothing was written', async () => {
    const stream = uniqueStream();
    const error = await caught(() =>
      store.appendToStream(stream, newEvents(1), { expectedRevision: 5 }),
    );
    expect(error).toBeInstanceOf(ConcurrencyError);
    expect(appends.map((a) => a.ok)).toEqual([false]);
    expect(commits).toEqual([]);
  });
});
