import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { boxDecider, boxStream, sessionStream, type BoxCommand } from '@sessionboxer/domain';
import { CommandHandler, type EventStore } from '@sessionboxer/event-store';
import { SqliteEventStore } from '@sessionboxer/event-store/sqlite';
import { EVENT_STORE } from '../src/infrastructure/tokens';
import { waitFor } from './box-kit';
import { startApp, tempDataDir, type RunningApp } from './harness';

const actor = { kind: 'system', id: 'test' } as const;
const command = (type: BoxCommand['type'], data: object) =>
  ({
    type,
    data,
    metadata: { commandId: randomUUID(), at: new Date().toISOString(), actor },
  }) as BoxCommand;

/** Records a box that was provisioned and destroyed, as the box lifecycle would. */
async function destroyBox(store: EventStore, dataDir: string, sessionId: string) {
  const handler = new CommandHandler(store);
  const dir = path.join(dataDir, 'boxes', sessionId);
  const paths = { workspacePath: `${dir}/workspace`, mcpJsonPath: `${dir}/.mcp.json` };
  for (const [type, data] of [
    ['ProvisionBox', { ...paths, isolation: 'process' }],
    ['DestroyBox', {}],
  ] as const) {
    await handler.handle(boxDecider, boxStream(sessionId), command(type, { sessionId, ...data }));
  }
}

/**
 * Reactors keep a checkpoint: an event appended while the control plane was down is reacted to
 * when it starts, and one reacted to before the restart is not reacted to again. Seen through
 * DestroyedBoxes (a destroyed box stops its session), which acts again on any session that
 * runs with a destroyed box, so a second reaction would show as a second stop.
 */
describe('reactors across a control-plane restart', () => {
  const dataDir = tempDataDir();
  let api: RunningApp;
  const status = async (id: string) =>
    (await api.request('GET', `/api/sessions/${id}`)).body.status as string;
  const create = async (title: string) =>
    (await api.request('POST', '/api/sessions', { title })).body.id as string;
  const stops = async (store: EventStore, id: string) =>
    (await store.readStream(sessionStream(id))).filter((e) => e.type === 'SessionStopped').length;

  beforeAll(async () => {
    api = await startApp(dataDir);
  });
  afterAll(async () => {
    await api?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('reacts to an event appended while it was down, and not again to one it reacted to', async () => {
    const before = await create('Destroyed before the restart');
    const during = await create('Destroyed while the control plane is down');
    await destroyBox(eventStoreOf(api), dataDir, before);
    await waitFor(
      'the reaction to stop the session',
      async () => (await status(before)) === 'stopped',
    );
    // Resumed, it runs with its destroyed box: a repeated reaction would stop it again.
    await api.request('POST', `/api/sessions/${before}/resume`, {});
    expect(await status(before)).toBe('running');
    await api.close();

    const store = SqliteEventStore.open({ path: path.join(dataDir, 'events.sqlite') });
    await destroyBox(store, dataDir, during);
    await store.close();

    api = await startApp(dataDir);
    await waitFor(
      'the reaction to the event appended while down',
      async () => (await status(during)) === 'stopped',
    );
    // The reactor follows $all in order: it is past `before`'s event once it stopped `during`.
    expect(await status(before)).toBe('running');
    const live = eventStoreOf(api);
    expect([await stops(live, before), await stops(live, during)]).toEqual([1, 1]);
  });
});

function eventStoreOf(api: RunningApp): EventStore {
  return api.app.get<EventStore>(EVENT_STORE);
}
