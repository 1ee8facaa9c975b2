import * as fs from 'node:fs';
import { transcript } from './agent/agent-kit';
import { waitFor } from './box-kit';
import type { JobsPort } from '../src/jobs/jobs.port';
import { JOBS } from '../src/jobs/jobs.provider';
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
    // The agent's schedule_list has the spec's fields, exactly; the skip policy is the page's.
    const [row] = (await callTool(api, lead, 'schedule_list')).filter(
      (r: { id: string }) => r.id === created.id,
    );
    expect(Object.keys(row).sort()).toEqual(
      ['action', 'cron', 'enabled', 'id', 'lastRunAt', 'name', 'nextRunAt', 'timezone'].sort(),
    );
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

  it('stops the session a new_session schedule started once its first turn has ended (stopAfter)', async () => {
    await api.request('PATCH', `/api/sessions/${lead}/policy`, { agentTools: 'all' });
    const created = await callTool(api, lead, 'schedule_create', {
      cron: '*/2 * * * * *',
      name: 'Triage',
      action: { type: 'new_session', prompt: 'Triage the inbox', title: 'Scheduled triage' },
    });
    const started = await waitFor(
      'a session started by the schedule',
      async () => {
        const list = (await api.request('GET', '/api/sessions')).body as any[];
        return list.find((s) => s.title === 'Scheduled triage');
      },
      10_000,
    );
    await api.request('PATCH', `/api/schedules/${created.id}`, { enabled: false });
    // Its run names the session it started; schedule_list keeps the spec's fields only.
    const run = await waitFor('the run to be recorded', async () =>
      (await schedule(api, created.id)).runs.find((r: any) => r.sessionId === started.id),
    );
    expect(run).toMatchObject({ ok: true, detail: `started session ${started.id}` });
    const listed = (await callTool(api, lead, 'schedule_list')) as any[];
    expect(Object.keys(listed.find((r) => r.id === created.id)).sort()).toEqual([
      'action',
      'cron',
      'enabled',
      'id',
      'lastRunAt',
      'name',
      'nextRunAt',
      'timezone',
    ]);
    // Boxes are off here, so its first turn fails at once; that ends it all the same.
    const stopped = await waitFor('it to be stopped', async () => {
      const events = (await api.request('GET', `/api/streams/session-${started.id}/events`)).body
        .events as any[];
      return events.filter((e) => e.type === 'SessionStopped');
    });
    expect(stopped).toHaveLength(1);
    expect(stopped[0]).toMatchObject({
      data: { reason: 'its scheduled task finished' },
      metadata: { actor: { kind: 'system', id: `schedule:${created.id}` } },
    });
    await api.request('DELETE', `/api/schedules/${created.id}`);
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

  describe('changing the skip policy (PATCH /api/schedules/:id)', () => {
    let id: string;
    const patch = (body: unknown) => api.request('PATCH', `/api/schedules/${id}`, body);
    const stream = async () =>
      (await api.request('GET', `/api/streams/schedule-${id}/events`)).body.events as any[];
    const held = async () =>
      (await api.app.get<JobsPort>(JOBS).listSchedules()).find((s) => s.id === id);

    beforeAll(async () => {
      // Once a year: it never fires during the test.
      const created = await callTool(api, lead, 'schedule_create', {
        cron: '0 9 1 1 *',
        name: 'Yearly report',
        action: { type: 'prompt', text: 'Report' },
      });
      id = created.id as string;
    });
    afterAll(async () => {
      await api.request('DELETE', `/api/schedules/${id}`);
    });

    it('lists the skip policy, on by default', async () => {
      expect(await schedule(api, id)).toMatchObject({ enabled: true, skipMissed: true });
      expect(await held()).toMatchObject({ skipMissed: true });
    });

    it('skipMissed false: GET shows it, the event is in the stream, the jobs apply it', async () => {
      const reply = await patch({ skipMissed: false });
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ id, enabled: true, skipMissed: false });
      expect(Date.parse(reply.body.nextRunAt)).toBeGreaterThan(Date.now());
      expect(await schedule(api, id)).toMatchObject({ enabled: true, skipMissed: false });

      const changed = (await stream()).filter((e) => e.type === 'ScheduleSkipPolicyChanged');
      expect(changed).toHaveLength(1);
      expect(changed[0]).toMatchObject({
        data: { scheduleId: id, skipMissed: false },
        metadata: { actor: { kind: 'person', id: api.credentials.username } },
      });
      expect(await held()).toMatchObject({ skipMissed: false });

      // The same policy again records nothing.
      expect((await patch({ skipMissed: false })).status).toBe(200);
      expect(await stream()).toHaveLength(2);
    });

    it.each([
      ['{}', {}, /the body must set enabled, skipMissed or both/],
      ['no boolean', { skipMissed: 'no' }, /skipMissed: skipMissed must be true or false/],
      ['a null', { enabled: null }, /enabled: enabled must be true or false/],
      ['an unknown field', { skipMissed: true, paused: true }, /paused/],
    ])('refuses %s with 400 and changes nothing', async (_what, body, why) => {
      const before = await stream();
      const reply = await patch(body);
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ error: 'VALIDATION_FAILED' });
      expect(reply.body.message).toMatch(why);
      expect(await stream()).toEqual(before);
      expect(await schedule(api, id)).toMatchObject({ enabled: true, skipMissed: false });
    });

    it('applies both changes of one PATCH, and keeps the policy while off and on again', async () => {
      const off = await patch({ enabled: false, skipMissed: true });
      expect(off.body).toMatchObject({ enabled: false, skipMissed: true, nextRunAt: null });
      expect((await stream()).slice(-2).map((e) => e.type)).toEqual([
        'ScheduleSkipPolicyChanged',
        'ScheduleDisabled',
      ]);
      expect(await held()).toBeUndefined();

      expect((await patch({ skipMissed: false })).body).toMatchObject({
        enabled: false,
        skipMissed: false,
      });
      expect(await held()).toBeUndefined();
      expect((await patch({ enabled: true })).body).toMatchObject({
        enabled: true,
        skipMissed: false,
      });
      expect(await held()).toMatchObject({ skipMissed: false });
    });

    it('answers 404 for a schedule that does not exist', async () => {
      const reply = await api.request('PATCH', '/api/schedules/nope', { skipMissed: false });
      expect(reply.status).toBe(404);
    });
  });
});
