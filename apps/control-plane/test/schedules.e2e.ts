import * as fs from 'node:fs';
import { transcript } from './agent/agent-kit';
import { waitFor } from './box-kit';
import { startApp, type RunningApp } from './harness';
import { callTool, createSession, promptsFrom, schedule, sleep } from './schedule-kit';

/** Scheduled tasks through the running app, boxes off: a turn fails at once, the prompt stays. */
describe('scheduled tasks', () => {
  let api: RunningApp;
  let lead: string;
  let other: string;

  beforeAll(async () => {
    api = await startApp();
    lead = await createSession(api, 'Lead');
    other = await createSession(api, 'Other');
  });
  afterAll(async () => {
    await api?.close();
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('prompts the caller on time, says so in its transcript, and stops when disabled', async () => {
    const created = await callTool(api, lead, 'schedule_create', {
      cron: '*/2 * * * * *',
      name: 'Ping',
      action: { type: 'prompt', text: 'Status?' },
    });
    expect(created).toMatchObject({ name: 'Ping', cron: '*/2 * * * * *', timezone: 'UTC' });
    expect(Date.parse(created.nextRunAt) - Date.now()).toBeLessThanOrEqual(2100);

    const [first] = await waitFor(
      'a scheduled prompt',
      () => promptsFrom(api, lead, created.id).then((p) => p.length > 0 && p),
      10_000,
    );
    expect(first.text).toBe('Status?');
    const listed = await schedule(api, created.id);
    expect(listed).toMatchObject({ enabled: true, action: { type: 'prompt', sessionId: lead } });
    await waitFor('its run recorded', async () => (await schedule(api, created.id))?.lastRunAt);
    const markers = (await transcript(api, lead)).filter(
      (e) => e.marker?.kind === 'schedule-created',
    );
    expect(markers.map((m) => m.marker?.text)).toEqual([
      'scheduled “Ping” (*/2 * * * * *, UTC): a prompt each time',
    ]);

    const off = await api.request('PATCH', `/api/schedules/${created.id}`, { enabled: false });
    expect(off.body).toMatchObject({ enabled: false, nextRunAt: null });
    const before = (await promptsFrom(api, lead, created.id)).length;
    await sleep(4500);
    expect(await promptsFrom(api, lead, created.id)).toHaveLength(before);

    expect((await api.request('DELETE', `/api/schedules/${created.id}`)).status).toBe(204);
    expect(await schedule(api, created.id)).toBeUndefined();
    expect(
      (await api.request('PATCH', `/api/schedules/${created.id}`, { enabled: true })).status,
    ).toBe(404);
  });

  it("refuses another session's prompt under This Session only, naming the policy", async () => {
    const args = { cron: '0 9 * * 1-5', action: { type: 'prompt', sessionId: other, text: 'Hi' } };
    await expect(callTool(api, lead, 'schedule_create', args)).rejects.toThrow(
      /another session's agent on a schedule: schedule_create is not allowed: the sessionboxer policy is This Session only .*it needs All Sessions/,
    );
    const newSession = { cron: '0 9 * * *', action: { type: 'new_session', prompt: 'Triage' } };
    await expect(callTool(api, lead, 'schedule_create', newSession)).rejects.toThrow(
      /All Sessions/,
    );
    expect((await api.request('GET', '/api/schedules')).body).toEqual([]);

    await api.request('PATCH', `/api/sessions/${lead}/policy`, { agentTools: 'all' });
    const allowed = await callTool(api, lead, 'schedule_create', {
      ...args,
      timezone: 'Europe/Paris',
    });
    expect(allowed).toMatchObject({ timezone: 'Europe/Paris', name: 'Hi' });
    expect(await schedule(api, allowed.id)).toMatchObject({ action: { sessionId: other } });
    await api.request('DELETE', `/api/schedules/${allowed.id}`);
  });

  it('refuses a bad pattern or time zone with the reason', async () => {
    const action = { type: 'prompt', text: 'x' };
    await expect(callTool(api, lead, 'schedule_create', { cron: '* * *', action })).rejects.toThrow(
      /has 3 field\(s\)/,
    );
    await expect(
      callTool(api, lead, 'schedule_create', {
        cron: '* * * * *',
        timezone: 'Mars/Olympus',
        action,
      }),
    ).rejects.toThrow(/not an IANA time zone/);
  });
});
