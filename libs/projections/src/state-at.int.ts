import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import {
  approvalDecider,
  approvalStream,
  prStream,
  pullRequestDecider,
  sessionDecider,
  sessionStream,
  type Actor,
  type Command,
  type SessionCommand,
  type SessionState,
} from '@sessionboxer/domain';
import { CommandHandler } from '@sessionboxer/event-store';
import { SqliteEventStore } from '@sessionboxer/event-store/sqlite';
import { PERSON } from '../test/recorded-events';
import { useTempDir } from '../test/temp-files';
import {
  allProjections,
  ProjectionRunner,
  sessionDetailsQueries,
  sessionStateAt,
  SqliteReadModelStore,
  StateAtSnapshots,
  transcriptQueries,
  TRANSCRIPT_PAGE_MAX,
  type SessionStateAt,
} from '.';

const ID = 'audit-1';
const AGENT: Actor = { kind: 'agent', sessionId: ID };
const PR = { sessionId: ID, owner: 'acme', repo: 'api', number: 7 };

function cmd<C extends Command>(type: C['type'], data: C['data'], actor = PERSON): C {
  const metadata = { commandId: randomUUID(), at: new Date().toISOString(), actor };
  return { type, data, metadata } as C;
}

describe('a session state at a point of the history', () => {
  const dir = useTempDir();
  let eventStore: SqliteEventStore;
  let handler: CommandHandler;
  let live: SqliteReadModelStore;
  let runner: ProjectionRunner;
  let session: SessionState;
  const seen: Omit<SessionStateAt, 'recordedAt'>[] = [];

  beforeEach(async () => {
    eventStore = SqliteEventStore.open({ path: join(dir(), 'events.db'), synchronous: 'NORMAL' });
    handler = new CommandHandler(eventStore);
    live = SqliteReadModelStore.open({ path: join(dir(), 'live.db') });
    runner = new ProjectionRunner({ eventStore, store: live, projections: allProjections });
    await runner.start();
    seen.length = 0;
  });
  afterEach(async () => {
    await runner.stop();
    live.close();
    await eventStore.close();
  });

  /** What the live read models show now, once they caught up with the head. */
  async function record(): Promise<void> {
    const position = await eventStore.headPosition();
    await runner.waitForPosition(position, 10_000);
    const page = transcriptQueries(live).page(ID, { limit: TRANSCRIPT_PAGE_MAX });
    expect(page.next).toBeNull();
    const details = sessionDetailsQueries(live).get(ID);
    seen.push({ sessionId: ID, position, session, details, transcript: page.entries });
  }

  async function onSession(type: SessionCommand['type'], data: object, actor = PERSON) {
    const command = cmd<SessionCommand>(type, data as SessionCommand['data'], actor);
    session = (await handler.handle(sessionDecider, sessionStream(ID), command)).state;
    await record();
  }

  async function script(): Promise<void> {
    const creation = { sessionId: ID, title: 'First', provider: 'claude-code', model: 'claude' };
    await onSession('CreateSession', {
      ...creation,
      environment: 'docker-linux',
      createdBy: null,
      forkedFrom: null,
    });
    await onSession('SetSessionTitle', { sessionId: ID, title: 'Second' });
    const snapshot = { sessionId: ID, snapshotId: 'snap-1', sizeBytes: 4096 };
    await onSession('TakeSnapshot', { ...snapshot, conversationPosition: null }, AGENT);
    const attach = {
      ...PR,
      url: 'https://github.com/acme/api/pull/7',
      title: 'Fix',
      state: 'open' as const,
    };
    await handler.handle(pullRequestDecider, prStream(PR), cmd('AttachPr', attach, AGENT));
    await record();
    await onSession('SetSessionTitle', { sessionId: ID, title: 'Third' });
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const ask = { approvalId: 'ap-1', kind: 'session_create', sessionId: ID, summary: 'Create' };
    const request = cmd('RequestApproval', { ...ask, payload: { title: 'x' }, expiresAt }, AGENT);
    await handler.handle(approvalDecider, approvalStream('ap-1'), request);
    await record();
    const answer = cmd('AnswerApproval', { approvalId: 'ap-1', allow: false });
    await handler.handle(approvalDecider, approvalStream('ap-1'), answer);
    await record();
    await onSession('StopSession', { sessionId: ID, reason: 'done' });
  }

  it('equals, at each recorded position, what the live read models showed then', async () => {
    await script();
    expect(seen.length).toBe(8);
    // Each step changed something: a fold that ignored the point would fail here.
    expect(new Set(seen.map((s) => JSON.stringify(s))).size).toBe(seen.length);
    for (const then of seen) {
      const { recordedAt, ...at } = await sessionStateAt(eventStore, ID, then);
      expect(at).toEqual(then);
      expect(typeof recordedAt).toBe('string');
    }
  });

  it('is the same when folded on from kept snapshots, in any order, by position or time', async () => {
    await script();
    const probe = new StateAtSnapshots(2);
    await sessionStateAt(eventStore, ID, seen[seen.length - 1], probe);
    const image = probe.before(ID, { position: Number.MAX_SAFE_INTEGER })?.image.length ?? 0;
    // Room for about three: older ones are dropped and folded again.
    const snapshots = new StateAtSnapshots(2, 3 * image);
    const events = await eventStore.readAll();
    const points = [...seen, ...[...seen].reverse(), ...seen];
    for (const then of points) {
      const { recordedAt, ...at } = await sessionStateAt(eventStore, ID, then, snapshots);
      expect(at).toEqual(then);
      const time = events.find((e) => e.position === then.position)?.recordedAt as string;
      const plain = await sessionStateAt(eventStore, ID, { time });
      expect(await sessionStateAt(eventStore, ID, { time }, snapshots)).toEqual(plain);
      expect(recordedAt).toBe(time);
    }
    expect(snapshots.before(ID, { position: Number.MAX_SAFE_INTEGER })).not.toBeNull();
  });

  it('at a time, is the state at the last event recorded by then', async () => {
    await script();
    const events = await eventStore.readAll();
    for (const event of events) {
      const byTime = await sessionStateAt(eventStore, ID, { time: event.recordedAt });
      const last = events.filter((e) => e.recordedAt <= event.recordedAt).at(-1);
      expect(byTime.position).toBe(last?.position);
      expect(byTime).toEqual(await sessionStateAt(eventStore, ID, { position: byTime.position }));
    }
  });

  it('before the session existed, is its absence', async () => {
    await handler.handle(
      approvalDecider,
      approvalStream('ap-0'),
      cmd('RequestApproval', {
        approvalId: 'ap-0',
        kind: 'session_create',
        sessionId: 'other',
        summary: 'Create',
        payload: {},
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      }),
    );
    await script();
    const first = (await eventStore.readAll({ maxCount: 1 }))[0].position;
    const at = await sessionStateAt(eventStore, ID, { position: first });
    expect(at).toEqual({
      sessionId: ID,
      position: first,
      recordedAt: expect.any(String),
      session: { status: 'absent' },
      details: null,
      transcript: [],
    });
    const early = await sessionStateAt(eventStore, ID, { time: '2000-01-01T00:00:00Z' });
    expect(early.position).toBe(-1);
  });
});
