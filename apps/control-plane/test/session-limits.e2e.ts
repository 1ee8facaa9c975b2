import * as fs from 'node:fs';
import { approvalDecider, approvalStream } from '@sessionboxer/domain';
import { CallService } from '../src/box-gateway/call.service';
import { CommandBus } from '../src/infrastructure/command-bus';
import { startApp, type RunningApp } from './harness';

/**
 * The limits of agents creating and messaging sessions, under races: many calls at once
 * through the gateway's own entry (CallService, as a box's frames arrive), boxes off.
 */
describe('limits that hold under races', () => {
  let api: RunningApp;
  let calls: CallService;
  let n = 0;

  const call = (sessionId: string, tool: string, args: object) =>
    calls.handle(sessionId, { callId: `race-call-${++n}`, route: 'sessionboxer', tool, args });
  const session = async (title: string, agentTools = 'all'): Promise<string> => {
    const id = (await api.request('POST', '/api/sessions', { title, provider: 'scripted' })).body
      .id;
    await api.request('PATCH', `/api/sessions/${id}/policy`, {
      agentTools,
      sessionCreation: 'dont_ask',
    });
    return id as string;
  };
  const children = async (creator: string) =>
    (await api.request('GET', '/api/sessions')).body.filter(
      (s: any) => s.createdBy?.sessionId === creator && s.status === 'running',
    );

  beforeAll(async () => {
    api = await startApp();
    calls = api.app.get(CallService);
  });
  afterAll(async () => {
    await api?.close();
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('50 concurrent session_create calls from one agent leave exactly 3 alive children', async () => {
    const parent = await session('Parent');
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call(parent, 'session_create', { first_prompt: `task ${i}`, title: `Child ${i}` }),
      ),
    );
    const ok = results.filter((r) => r.ok);
    const refused = results.filter((r) => !r.ok);
    expect(ok).toHaveLength(3);
    expect(refused).toHaveLength(47);
    for (const r of refused) {
      expect(r.ok === false && r.error).toMatchObject({ code: 'LIMIT_REACHED' });
      expect(r.ok === false && r.error.message).toMatch(/already has 3 alive sessions it created/);
    }
    expect(await children(parent)).toHaveLength(3);
    const limits = (await api.request('GET', `/api/sessions/${parent}/limits`)).body;
    expect(limits.children).toMatchObject({ cap: 3 });
    expect(limits.children.alive).toHaveLength(3);
    // session_stop frees a place: one more create goes through, and only one.
    const first = (ok[0] as { result: { sessionId: string } }).result.sessionId;
    expect((await call(parent, 'session_stop', { session: first.slice(0, 8) })).ok).toBe(true);
    const again = await Promise.all(
      [1, 2, 3].map((i) => call(parent, 'session_create', { first_prompt: `more ${i}` })),
    );
    expect(again.filter((r) => r.ok)).toHaveLength(1);
    expect(await children(parent)).toHaveLength(3);
  });

  it('holds the global cap exactly under concurrent creators', async () => {
    await api.request('PATCH', '/api/settings', { sessionboxer: { globalCap: 7 } });
    const alive = (await api.request('GET', '/api/sessions')).body.filter(
      (s: any) => s.createdBy && s.status === 'running',
    ).length;
    const creators = await Promise.all(['A', 'B', 'C', 'D'].map((t) => session(`Creator ${t}`)));
    const results = await Promise.all(
      creators.flatMap((c) =>
        [1, 2, 3].map((i) => call(c, 'session_create', { first_prompt: `job ${i}` })),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(7 - alive);
    const capped = results.filter((r) => !r.ok && /global cap/.test(r.error.message));
    expect(capped.length).toBeGreaterThan(0);
    await api.request('PATCH', '/api/settings', { sessionboxer: { globalCap: 10 } });
  });

  it('refuses a second message while the first is in flight, a message to itself, and others’ sessions', async () => {
    const sender = await session('Sender');
    const target = await session('Target');
    // A stopped target keeps a queued message in flight (with boxes off a turn would end at once).
    await api.request('POST', `/api/sessions/${target}/stop`, {});
    const now = await call(sender, 'session_message', { session: target, text: 'hello' });
    expect(now.ok === false && now.error.message).toMatch(/is stopped; pass when: "queue"/);
    const first = await call(sender, 'session_message', {
      session: target,
      text: 'first',
      when: 'queue',
    });
    expect(first).toMatchObject({ ok: true, result: { sessionId: target, delivery: 'queued' } });
    const second = await call(sender, 'session_message', {
      session: target,
      text: 'second',
      when: 'queue',
    });
    expect(second.ok === false && second.error.message).toMatch(
      /still in flight; wait for its reply/,
    );
    const self = await call(sender, 'session_message', { session: sender, text: 'me' });
    expect(self.ok === false && self.error.message).toMatch(/cannot message itself: queue_add/);
    const stop = await call(sender, 'session_stop', { session: target });
    expect(stop.ok === false && stop.error.message).toMatch(/not yours to stop/);
  });

  it('refuses the other-sessions tools under This Session only, naming the policy', async () => {
    const narrow = await session('Narrow', 'session');
    const listed = await call(narrow, 'sessions_list', {});
    expect(listed.ok === false && listed.error.message).toMatch(
      /sessions_list is not allowed: the sessionboxer policy is This Session only/,
    );
  });

  it('denies an approval whose deadline passed while nothing ran to expire it', async () => {
    const asker = await session('Asker');
    const bus = api.app.get(CommandBus);
    const approvalId = '7d0c5b7e-0000-4000-8000-00000000e1a5';
    // A card whose deadline is already behind it, and no job at all scheduled to expire it.
    await bus.execute(approvalDecider, approvalStream(approvalId), {
      type: 'RequestApproval',
      data: {
        approvalId,
        kind: 'session_create',
        sessionId: asker,
        summary: 'The scripted harness wants to create a Session “Late”',
        payload: { title: 'Late', firstPrompt: 'x', provider: 'scripted', hop: 1 },
        expiresAt: '2026-01-01T00:00:00.000Z',
      },
      metadata: bus.metadata({ kind: 'agent', sessionId: asker }),
    });
    const allow = await api.request('POST', `/api/approvals/${approvalId}/allow`);
    expect(allow.status).toBe(409);
    expect(allow.body.message).toMatch(
      /expired at 2026-01-01T00:00:00.000Z, unanswered, and counts as denied/,
    );
    const cards = (await api.request('GET', `/api/sessions/${asker}/approvals`)).body;
    expect(cards.map((c: any) => c.status)).toEqual(['expired']);
    const waited = await call(asker, 'approval_wait', { id: approvalId, timeout_seconds: 1 });
    expect(waited).toMatchObject({ ok: true, result: { status: 'expired' } });
    expect(
      (await api.request('GET', '/api/sessions')).body.some((x: any) => x.title === 'Late'),
    ).toBe(false);
  });
});
