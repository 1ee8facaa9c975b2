import * as fs from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { allProjections } from '@sessionboxer/projections';
import { script, turnRunning } from '../agent/agent-kit';
import { call, callError, mcpClientInBox, waitFor, waitForBox } from '../box-kit';
import { inBox } from '../egress/egress-kit';
import { startApp, type RunningApp } from '../harness';
import { parsePrometheusText, type Family } from './prom-text';

const TOKEN = 'metrics-token-0123456789';

/**
 * The proof for metrics: real calls (tool calls from a real box through the gateway,
 * REST commands, a refused connection out of the box, a scheduled job, a running turn), then
 * /metrics scraped and read with a strict parser of the text format.
 */
describe('GET /metrics after real work', () => {
  let api: RunningApp;
  let sessionId: string;
  let client: Client;

  const scrape = async (headers: Record<string, string>) => {
    const res = await fetch(`${api.url}/metrics`, { headers });
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  };
  const families = async () =>
    parsePrometheusText((await scrape({ authorization: `Bearer ${TOKEN}` })).text);
  const total = (f: Family | undefined, sample: string, labels: Record<string, string> = {}) =>
    (f?.samples ?? [])
      .filter((s) => s.name === sample)
      .filter((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))
      .reduce((sum, s) => sum + s.value, 0);

  beforeAll(async () => {
    api = await startApp(undefined, {
      SESSIONBOXER_BOXES: 'on',
      SESSIONBOXER_METRICS_TOKEN: TOKEN,
    });
    const created = await api.request('POST', '/api/sessions', {
      title: 'M',
      provider: 'scripted',
    });
    sessionId = created.body.id as string;
    await waitForBox(api, sessionId);
    client = await mcpClientInBox(api, sessionId);
  });
  afterAll(async () => {
    await client?.close();
    await api?.close();
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('refuses a scraper without the token or a sign-in with 401, saying how', async () => {
    const wrong: Record<string, string>[] = [{}, { authorization: 'Bearer not-the-token-at-all' }];
    for (const headers of wrong) {
      const refused = await scrape(headers);
      expect(refused.status).toBe(401);
      expect(refused.text).toContain('SESSIONBOXER_METRICS_TOKEN');
    }
    expect((await scrape(api.authHeaders)).status).toBe(200);
    const ok = await scrape({ authorization: `Bearer ${TOKEN}` });
    expect(ok.status).toBe(200);
    expect(ok.type).toMatch(/^text\/plain;.*version=0\.0\.4/);
  });

  it('shows non-zero values for every family the issue names', async () => {
    // Tool calls through the gateway: one answered, one the policy refuses (This Session only).
    expect((await call(client, 'whoami')).id).toBe(sessionId);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(await callError(client, 'session_get', { session: unknown })).toMatch(/polic/i);
    // A job: a schedule firing every second. A turn that runs for a minute.
    await call(client, 'schedule_create', {
      cron: '* * * * * *',
      action: { type: 'prompt', text: 'Tick' },
    });
    await api.request('POST', `/api/sessions/${sessionId}/prompts`, {
      text: script({ sleep: 60 }),
    });
    await turnRunning(api, sessionId, 1);
    // A connection out of the box the egress proxy refuses.
    const { out } = await inBox(api, sessionId, ['/usr/bin/curl', '-sS', 'http://evil.example/']);
    expect(out).toContain('blocked a connection to evil.example:80');

    const f = await waitFor('a job fired and the refusal counted', async () => {
      const now = await families();
      const fired = total(
        now.get('sessionboxer_jobs_fired_total'),
        'sessionboxer_jobs_fired_total',
      );
      const refused = now.get('sessionboxer_egress_refusals_total');
      return fired > 0 && total(refused, 'sessionboxer_egress_refusals_total') > 0 && now;
    });
    const append = f.get('sessionboxer_event_store_append_seconds');
    expect(append?.type).toBe('histogram');
    expect(
      total(append, 'sessionboxer_event_store_append_seconds_count', { outcome: 'ok' }),
    ).toBeGreaterThan(0);
    expect(total(append, 'sessionboxer_event_store_append_seconds_sum')).toBeGreaterThan(0);
    const batches = f.get('sessionboxer_event_store_commit_appends');
    expect(total(batches, 'sessionboxer_event_store_commit_appends_count')).toBeGreaterThan(0);
    expect(total(batches, 'sessionboxer_event_store_commit_appends_sum')).toBeGreaterThanOrEqual(
      total(batches, 'sessionboxer_event_store_commit_appends_count'),
    );
    expect(
      total(
        f.get('sessionboxer_event_store_head_position'),
        'sessionboxer_event_store_head_position',
      ),
    ).toBeGreaterThan(0);
    // One lag per projection, never negative (0 when it has caught up).
    const lag = f.get('sessionboxer_projection_lag_events')?.samples ?? [];
    expect(lag.map((s) => s.labels.projection).sort()).toEqual(
      allProjections.map((p) => p.name).sort(),
    );
    expect(lag.every((s) => Number.isInteger(s.value) && s.value >= 0)).toBe(true);
    expect(total(f.get('sessionboxer_boxes'), 'sessionboxer_boxes', { status: 'ready' })).toBe(1);
    expect(total(f.get('sessionboxer_turns_running'), 'sessionboxer_turns_running')).toBe(1);
    const calls = f.get('sessionboxer_tool_calls_total');
    const whoami = { route: 'sessionboxer', tool: 'whoami', outcome: 'ok' };
    expect(total(calls, 'sessionboxer_tool_calls_total', whoami)).toBe(1);
    expect(
      total(calls, 'sessionboxer_tool_calls_total', { tool: 'session_get', outcome: 'FORBIDDEN' }),
    ).toBe(1);
    const latency = f.get('sessionboxer_tool_call_seconds');
    expect(total(latency, 'sessionboxer_tool_call_seconds_count', { tool: 'whoami' })).toBe(1);
    expect(
      total(latency, 'sessionboxer_tool_call_seconds_sum', { tool: 'whoami' }),
    ).toBeGreaterThan(0);
    expect(
      total(f.get('sessionboxer_egress_refusals_total'), 'sessionboxer_egress_refusals_total', {
        code: 'not_allowed',
      }),
    ).toBe(1);
    expect(
      total(f.get('sessionboxer_jobs_fired_total'), 'sessionboxer_jobs_fired_total', {
        kind: 'cron',
      }),
    ).toBeGreaterThan(0);
    await api.request('POST', `/api/sessions/${sessionId}/interrupt`);
  });
});
