import * as fs from 'node:fs';
import { waitForBox } from './box-kit';
import { startApp, type RunningApp } from './harness';
import { conversation, script, turnFinished } from './agent/agent-kit';
import { egressEvents, inBox, OUTSIDE, outsideServer, useTestResolver } from './egress/egress-kit';

const CURL = ['/usr/bin/curl', '-sS', '--max-time', '20'];

interface Refusal {
  target: string;
  reason: string;
}

/**
 * Policy replay against the live system: a real box's agent makes sessionboxer calls and
 * connections under a policy P0 that allows everything; replaying P1 over that history names
 * what P1 would refuse; then the same calls and connections run live under P1, and what the
 * gateway and the egress proxy refused is exactly that, with the same reasons.
 */
describe('policy replay', () => {
  let api: RunningApp;
  let outside: Awaited<ReturnType<typeof outsideServer>>;
  let id: string;
  let port: number;

  beforeAll(async () => {
    outside = await outsideServer((_req, res) => res.end('ok'));
    port = outside.port;
    api = await startApp(undefined, {
      SESSIONBOXER_BOXES: 'on',
      SESSIONBOXER_EGRESS_ALLOW_ADDRESSES: OUTSIDE,
    });
    useTestResolver(api, { 'a.test': [OUTSIDE], 'b.test': [OUTSIDE] });
    await api.request('PATCH', '/api/settings', { sessionboxer: { agentTools: 'all' } });
    const allow = [`a.test:${port}`, `b.test:${port}`];
    expect((await api.request('PUT', '/api/settings/egress', { allow })).status).toBe(200);
    id = (await api.request('POST', '/api/sessions', { title: 'Replayed', provider: 'scripted' }))
      .body.id;
    await waitForBox(api, id);
  });
  afterAll(async () => {
    await api?.close();
    await outside?.close();
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  /** One turn of calls and two connections; what was refused in it, live. */
  async function run(turn: number): Promise<Refusal[]> {
    await api.request('POST', `/api/sessions/${id}/prompts`, {
      text: script(
        { call: 'sessionboxer.title_set', args: { title: `Turn ${turn}` } },
        { call: 'sessionboxer.sessions_list' },
        { call: 'sessionboxer.whoami' },
      ),
    });
    await turnFinished(api, id, turn);
    const events = (await conversation(api, id)).events as any[];
    const names = new Map(
      events.filter((e) => e.type === 'tool_call').map((e) => [e.id, e.name as string]),
    );
    const refused: Refusal[] = events
      .filter((e) => e.turn === turn && e.type === 'tool_result' && e.error)
      .map((e) => ({
        target: String(names.get(e.id)).replace('mcp__sessionboxer__', ''),
        reason: e.output,
      }));
    for (const host of ['a.test', 'b.test']) {
      await inBox(api, id, [...CURL, `http://${host}:${port}/`]);
    }
    const connections = await egressEvents(
      api,
      id,
      (e) => e.data.port === port && ['a.test', 'b.test'].includes(e.data.host),
      2 * turn,
    );
    for (const e of connections.slice(2 * (turn - 1))) {
      if (e.type === 'EgressRefused') {
        refused.push({ target: `${e.data.host}:${e.data.port}`, reason: String(e.data.reason) });
      }
    }
    return refused;
  }

  const P1 = () => ({ agentTools: 'session', egressAllow: [`a.test:${port}`] });

  it('names what a stricter policy would have refused, as the live system then refuses it', async () => {
    expect(await run(1)).toEqual([]);
    const replayed = await api.request('POST', '/api/audit/policy-replay', {
      policy: P1(),
      sessionId: id,
    });
    expect(replayed.status).toBe(200);
    expect(replayed.body.examined).toEqual({ toolCalls: 3, connections: 2 });
    const wouldRefuse = (replayed.body.findings as any[]).map((f) => ({
      target: f.target as string,
      reason: f.reason as string,
      refusedThen: f.refusedThen as boolean,
    }));
    expect(wouldRefuse.map((f) => f.target)).toEqual(['sessions_list', `b.test:${port}`]);
    expect(wouldRefuse.every((f) => !f.refusedThen)).toBe(true);

    await api.request('PATCH', '/api/settings', { sessionboxer: { agentTools: 'session' } });
    await api.request('PUT', '/api/settings/egress', { allow: P1().egressAllow });
    const live = await run(2);
    expect(live.map((r) => r.target)).toEqual(wouldRefuse.map((f) => f.target));
    live.forEach((r, i) => expect(r.reason).toContain(wouldRefuse[i].reason));

    // Replayed again over the whole installation: turn 2's refusals were refused then too.
    const again = await api.request('POST', '/api/audit/policy-replay', { policy: P1() });
    const findings = again.body.findings as any[];
    expect(findings).toHaveLength(4);
    expect(findings.slice(2).every((f) => f.refusedThen)).toBe(true);
  });

  it('refuses a policy it cannot read, naming what was wrong', async () => {
    const bad = await api.request('POST', '/api/audit/policy-replay', {
      policy: { agentTools: 'sometimes' },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/agentTools/);
    const list = await api.request('POST', '/api/audit/policy-replay', {
      policy: { egressAllow: ['not a host'] },
    });
    expect(list.status).toBe(400);
    const nobody = await api.request('POST', '/api/audit/policy-replay', {
      policy: { agentTools: 'off' },
      sessionId: 'no-such-session',
    });
    expect(nobody.status).toBe(404);
  });
});
