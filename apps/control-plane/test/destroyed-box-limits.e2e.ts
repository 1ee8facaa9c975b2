import * as fs from 'node:fs';
import { CallService } from '../src/box-gateway/call.service';
import { waitFor, waitForBox } from './box-kit';
import { startApp, type RunningApp } from './harness';

/**
 * A destroyed box ends its session the way the limits count: the session stops, so an
 * agent-created one gives its place back to its creator's 3-alive ledger and the global cap.
 */
describe("destroying an agent-created session's box", () => {
  let api: RunningApp;
  let calls: CallService;
  let n = 0;

  const create = (creator: string, title: string) =>
    calls.handle(creator, {
      callId: `destroy-limits-${++n}`,
      route: 'sessionboxer',
      tool: 'session_create',
      args: { first_prompt: `say hi as ${title}`, title },
    });

  beforeAll(async () => {
    api = await startApp(undefined, { SESSIONBOXER_BOXES: 'on' });
    calls = api.app.get(CallService);
  });
  afterAll(async () => {
    await api?.close();
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('stops the session and frees its place: the creator can create another', async () => {
    const parent = (
      await api.request('POST', '/api/sessions', { title: 'Parent', provider: 'scripted' })
    ).body.id as string;
    await api.request('PATCH', `/api/sessions/${parent}/policy`, {
      agentTools: 'all',
      sessionCreation: 'dont_ask',
    });
    const children: string[] = [];
    for (const title of ['One', 'Two', 'Three']) {
      const made = await create(parent, title);
      expect(made).toMatchObject({ ok: true });
      children.push((made as { result: { sessionId: string } }).result.sessionId);
    }
    const refused = await create(parent, 'Four');
    expect(refused).toMatchObject({ ok: false, error: { code: 'LIMIT_REACHED' } });

    await waitForBox(api, children[0]);
    const destroyed = await api.request('POST', `/api/sessions/${children[0]}/box/destroy`);
    expect(destroyed.status).toBe(200);
    const stopped = await waitFor('the destroyed box’s session to stop', async () => {
      const s = (await api.request('GET', `/api/sessions/${children[0]}`)).body;
      return s.status === 'stopped' ? s : null;
    });
    expect(stopped.box.status).toBe('destroyed');
    const limits = (await api.request('GET', `/api/sessions/${parent}/limits`)).body;
    expect(limits.children.alive.map((a: { sessionId: string }) => a.sessionId).sort()).toEqual(
      children.slice(1).sort(),
    );
    expect(await create(parent, 'Four again')).toMatchObject({ ok: true });
  });
});
