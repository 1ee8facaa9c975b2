import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  DomainError,
  ErrorCode,
  sessionDecider,
  sessionStream,
  type CommandMetadata,
  type CreateSession,
  type SetSessionTitle,
} from '@sessionboxer/domain';
import { CommandHandler, deterministicUuid } from '@sessionboxer/event-store';
import { SqliteEventStore } from '@sessionboxer/event-store/sqlite';

const actor = { kind: 'person', id: 'ada' } as const;
const meta = (commandId: string, extra: Partial<CommandMetadata> = {}): CommandMetadata => ({
  commandId,
  at: '2026-11-30T10:00:00.000Z',
  actor,
  ...extra,
});
const create = (sessionId: string, commandId: string): CreateSession => ({
  type: 'CreateSession',
  data: {
    sessionId,
    title: 'Backend tests',
    provider: 'claude-code',
    model: 'default',
    environment: 'docker-linux',
    createdBy: null,
    forkedFrom: null,
  },
  metadata: meta(commandId),
});
const rename = (sessionId: string, title: string, commandId: string): SetSessionTitle => ({
  type: 'SetSessionTitle',
  data: { sessionId, title },
  metadata: meta(commandId),
});

describe('CommandHandler over the SQLite event store', () => {
  let dir: string;
  let store: SqliteEventStore;
  let handler: CommandHandler;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-cmd-'));
    store = SqliteEventStore.open({ path: path.join(dir, 'events.sqlite') });
    handler = new CommandHandler(store);
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('appends the decided events with the command metadata and returns them', async () => {
    const command = create('s1', 'c1');
    command.metadata.correlationId = 'corr-9';
    const result = await handler.handle(sessionDecider, sessionStream('s1'), command);
    expect(result.replayed).toBe(false);
    expect(result.events.map((e) => e.type)).toEqual(['SessionCreated']);
    expect(result.events[0].metadata).toEqual({
      commandId: 'c1',
      correlationId: 'corr-9',
      causationId: 'c1',
      actor,
      at: '2026-11-30T10:00:00.000Z',
    });
    expect(result.events[0].id).toBe(deterministicUuid('c1/session-s1/0'));
    expect(result.revision).toBe(0);
    expect(result.position).toBe(result.events[0].position);
    expect(result.state).toMatchObject({ status: 'running', title: 'Backend tests' });
  });

  it('returns the first result for a repeated command id and appends nothing', async () => {
    const first = await handler.handle(sessionDecider, sessionStream('s1'), create('s1', 'c1'));
    await handler.handle(sessionDecider, sessionStream('s1'), rename('s1', 'Other', 'c2'));
    const again = await handler.handle(sessionDecider, sessionStream('s1'), create('s1', 'c1'));
    expect(again.replayed).toBe(true);
    expect(again.events).toEqual(first.events);
    expect(await store.readStream(sessionStream('s1'))).toHaveLength(2);
  });

  it('appends one set of events when two copies of a command race', async () => {
    await handler.handle(sessionDecider, sessionStream('s1'), create('s1', 'c1'));
    const copies = await Promise.all([
      handler.handle(sessionDecider, sessionStream('s1'), rename('s1', 'Renamed', 'c2')),
      handler.handle(sessionDecider, sessionStream('s1'), rename('s1', 'Renamed', 'c2')),
    ]);
    expect(copies[0].events).toEqual(copies[1].events);
    const types = (await store.readStream(sessionStream('s1'))).map((e) => e.type);
    expect(types).toEqual(['SessionCreated', 'SessionTitleSet']);
  });

  it('refuses with the decider error and appends nothing', async () => {
    await expect(
      handler.handle(sessionDecider, sessionStream('s1'), rename('s1', 'x', 'c1')),
    ).rejects.toMatchObject({ code: ErrorCode.NotFound });
    expect(await store.readStream(sessionStream('s1'))).toEqual([]);
  });

  it('re-decides after losing a race, so 20 concurrent renames all land in order', async () => {
    await handler.handle(sessionDecider, sessionStream('s1'), create('s1', 'c0'));
    const titles = Array.from({ length: 20 }, (_, i) => `Title ${i}`);
    await Promise.all(
      titles.map((t, i) =>
        handler.handle(sessionDecider, sessionStream('s1'), rename('s1', t, `r${i}`)),
      ),
    );
    const events = await store.readStream(sessionStream('s1'));
    expect(events.map((e) => e.revision)).toEqual([...Array(21).keys()]);
    const renamedTo = events.slice(1).map((e) => (e.data as { title: string }).title);
    expect([...renamedTo].sort()).toEqual([...titles].sort());
    expect(new Set(events.map((e) => e.metadata.commandId)).size).toBe(21);
  });

  it('gives up with a Conflict error once its attempts are spent', async () => {
    const once = new CommandHandler(store, { maxAttempts: 1 });
    await once.handle(sessionDecider, sessionStream('s1'), create('s1', 'c0'));
    const results = await Promise.allSettled([
      once.handle(sessionDecider, sessionStream('s1'), rename('s1', 'A', 'a')),
      once.handle(sessionDecider, sessionStream('s1'), rename('s1', 'B', 'b')),
    ]);
    const rejected = results.filter((r) => r.status === 'rejected');
    expect(rejected).toHaveLength(1);
    const reason = rejected[0].reason as DomainError;
    expect(reason).toBeInstanceOf(DomainError);
    expect(reason.code).toBe(ErrorCode.Conflict);
    expect(await store.readStream(sessionStream('s1'))).toHaveLength(2);
  });

  it('decides on what another writer appended since its last command (folded states are cached)', async () => {
    const other = new CommandHandler(store);
    await handler.handle(sessionDecider, sessionStream('s1'), create('s1', 'c0'));
    await other.handle(sessionDecider, sessionStream('s1'), rename('s1', 'From other', 'o1'));
    const mine = await handler.handle(
      sessionDecider,
      sessionStream('s1'),
      rename('s1', 'Mine', 'm1'),
    );
    expect(mine.events[0].data).toMatchObject({ title: 'Mine', previousTitle: 'From other' });
    expect(mine.revision).toBe(2);
    // The other writer's command id is known to this handler too: repeating it appends nothing.
    const repeat = await handler.handle(
      sessionDecider,
      sessionStream('s1'),
      rename('s1', 'From other', 'o1'),
    );
    expect(repeat.replayed).toBe(true);
    expect(repeat.events.map((e) => e.revision)).toEqual([1]);
    expect(await store.readStream(sessionStream('s1'))).toHaveLength(3);
  });

  it('reads only the events appended since the last command on a stream', async () => {
    const reads: (number | string | undefined)[] = [];
    const readStream = store.readStream.bind(store);
    store.readStream = (name, options) => {
      reads.push(options?.fromRevision);
      return readStream(name, options);
    };
    await handler.handle(sessionDecider, sessionStream('s1'), create('s1', 'c0'));
    await handler.handle(sessionDecider, sessionStream('s1'), rename('s1', 'A', 'a'));
    await handler.handle(sessionDecider, sessionStream('s1'), rename('s1', 'B', 'b'));
    // Each command: one read from after the cached revision, one read back of what it appended.
    expect(reads).toEqual([0, 0, 1, 1, 2, 2]);
  });
});
