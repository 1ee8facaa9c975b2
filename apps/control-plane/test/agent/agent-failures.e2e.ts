import * as fs from 'node:fs';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import type { EventStore, RecordedEvent } from '@sessionboxer/event-store';
import { EVENT_STORE } from '../../src/infrastructure/tokens';
import { waitFor, waitForBox } from '../box-kit';
import { startApp, type RunningApp } from '../harness';
import { PLACEHOLDER_KEY } from '../../src/provider-relay';
import { conversation, script, turnFinished, turnRunning } from './agent-kit';
import { boxEnvirons, filesHolding, workspaceOf } from './box-secrets-kit';

async function allEvents(api: RunningApp): Promise<RecordedEvent[]> {
  return api.app.get<EventStore>(EVENT_STORE).readAll();
}

/**
 * Credentials stay outside the box (it holds a placeholder; the edge's relay adds the key); a
 * harness that cannot run ends its turn with an error event that says why, never a hung turn.
 */
describe('an agent’s credentials and the turns that cannot run', () => {
  // Shaped like a real key, so nothing but the masking can keep it out of the history.
  const SECRET = `sk-ant-api03-${'Zq9'.repeat(12)}-e2e`;
  let api: RunningApp;
  // Every log line of the run, at debug level: the secret must be in none of them.
  let logs = '';

  const session = async (provider: string): Promise<string> => {
    const created = await api.request('POST', '/api/sessions', { title: provider, provider });
    expect(created.status).toBe(201);
    await waitForBox(api, created.body.id);
    return created.body.id as string;
  };

  beforeAll(async () => {
    const capture = new PassThrough();
    capture.on('data', (d: Buffer) => (logs += d.toString()));
    api = await startApp(
      undefined,
      { SESSIONBOXER_BOXES: 'on', SESSIONBOXER_LOG_LEVEL: 'debug' },
      { logs: capture },
    );
  });
  afterAll(async () => {
    await api?.close();
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('refuses to run claude-code without a credential: credentials_missing, turn failed', async () => {
    const id = await session('claude-code');
    await api.request('POST', `/api/sessions/${id}/prompts`, { text: 'Fix the tests' });
    const finished = await turnFinished(api, id, 1);
    expect(finished.status).toBe('failed');
    const error = (await conversation(api, id)).events.find((e: any) => e.type === 'error');
    expect(error.code).toBe('credentials_missing');
    expect(error.message).toMatch(/ANTHROPIC_API_KEY, CLAUDE_CODE_OAUTH_TOKEN/);
  });

  it('never lets a credential into the box, an event, a read model or a log', async () => {
    const set = await api.request('PUT', '/api/settings/credentials/anthropicApiKey', {
      value: SECRET,
    });
    expect(set.body).toEqual({ name: 'anthropicApiKey', env: 'ANTHROPIC_API_KEY', set: true });
    const id = await session('scripted');
    await api.request('POST', `/api/sessions/${id}/prompts`, {
      text: script(
        { echo_env: 'ANTHROPIC_API_KEY' },
        { call: 'sessionboxer.notify', args: { text: 'my key is ${env:ANTHROPIC_API_KEY}' } },
        { call: 'sessionboxer.title_set', args: { title: 'key ${env:ANTHROPIC_API_KEY}' } },
        { sleep: 60 },
      ),
    });
    // While the harness runs: every process in the box, and every file of its workspace.
    await waitFor('the agent to set the title', async () => {
      const s = (await api.request('GET', `/api/sessions/${id}`)).body;
      return s.title.startsWith('key ');
    });
    const environs = await boxEnvirons(api, id);
    expect(environs).toContain(`ANTHROPIC_API_KEY=${PLACEHOLDER_KEY}`);
    expect(environs).toContain('ANTHROPIC_BASE_URL=http://127.0.0.1:7001/provider/anthropic');
    expect(environs).not.toContain(SECRET);
    expect(filesHolding(await workspaceOf(api, id), SECRET)).toEqual([]);
    await api.request('POST', `/api/sessions/${id}/interrupt`);
    await turnFinished(api, id, 1);

    const { events } = await conversation(api, id);
    // What the harness held, and so could echo, was the placeholder: the relay adds the key.
    expect(events.find((e: any) => e.type === 'message').text).toBe(PLACEHOLDER_KEY);
    expect(JSON.stringify(events)).toContain(`my key is ${PLACEHOLDER_KEY}`);
    const history = JSON.stringify(await allEvents(api));
    expect(history).toContain('CredentialChanged');
    expect(history).not.toContain(SECRET);
    const settings = await api.request('GET', '/api/settings');
    expect(JSON.stringify(settings.body)).not.toContain(SECRET);
    const leaks = filesHolding(api.dataDir, SECRET).filter(
      (f) => !f.endsWith(path.join('secrets', 'credentials.json')),
    );
    expect(leaks).toEqual([]);

    // The logs: requests carrying the secret where a careless caller might (a header the
    // relays read, a cookie, the query), and every line since start, commands included.
    const carrying = { 'x-api-key': SECRET, cookie: `k=${SECRET}` };
    await api.request('GET', `/api/sessions?key=${SECRET}`, undefined, carrying);
    const lines = logs
      .split('\n')
      .filter(Boolean)
      .map((l): any => JSON.parse(l));
    const credentialCommand = lines.find((l) => l.command === 'RecordCredentialChange');
    expect(credentialCommand).toMatchObject({ outcome: 'ok', stream: 'credentials-global' });
    expect(credentialCommand.correlationId).toEqual(expect.any(String));
    // The command's line names the request it ran for, whose own line says how it ended.
    const request = lines.find((l) => l.req?.id === credentialCommand.reqId);
    expect(request).toMatchObject({ req: { method: 'PUT' }, res: { statusCode: 200 } });
    const carried = lines.find((l) => l.req?.url?.startsWith('/api/sessions?key='));
    expect(carried.req.headers['x-api-key']).toBe('[redacted]');
    expect(carried.req.headers.cookie).toBe('[redacted]');
    expect(carried.req.id).toEqual(expect.any(String));
    expect(logs).not.toContain(SECRET);
  });

  it('fails the running turn when its box is destroyed and stops the session; later prompts wait', async () => {
    const id = await session('scripted');
    await api.request('POST', `/api/sessions/${id}/prompts`, { text: script({ sleep: 60 }) });
    await turnRunning(api, id, 1);
    expect((await api.request('POST', `/api/sessions/${id}/box/destroy`)).status).toBe(200);
    expect((await turnFinished(api, id, 1)).status).toBe('failed');
    await waitFor('the session to stop', async () => {
      const s = (await api.request('GET', `/api/sessions/${id}`)).body;
      return s.status === 'stopped';
    });
    const later = await api.request('POST', `/api/sessions/${id}/prompts`, {
      text: script({ say: 'hi' }),
    });
    expect(later.body).toMatchObject({ status: 'queued', position: 1 });
    const errors = (await conversation(api, id)).events.filter((e: any) => e.type === 'error');
    expect(errors.map((e: any) => [e.code, e.message])).toEqual([
      ['not_running', 'the box was destroyed, and the agent with it'],
    ]);
  });

  it('clears a credential; its value is gone from the vault too', async () => {
    const cleared = await api.request('DELETE', '/api/settings/credentials/anthropicApiKey');
    expect(cleared.body.set).toBe(false);
    const vault = path.join(api.dataDir, 'secrets', 'credentials.json');
    expect(fs.readFileSync(vault, 'utf8')).not.toContain(SECRET);
    const bad = await api.request('PUT', '/api/settings/credentials/githubToken', { value: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/name must be one of anthropicApiKey/);
  });
});
