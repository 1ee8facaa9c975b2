import * as fs from 'node:fs';
import * as path from 'node:path';
import type { EventStore, RecordedEvent } from '@sessionboxer/event-store';
import { EVENT_STORE } from '../../src/infrastructure/tokens';
import { waitFor, waitForBox } from '../box-kit';
import { startApp, type RunningApp } from '../harness';
import { conversation, script, turnFinished, turnRunning } from './agent-kit';

/** Every file under a folder, recursively (logs, read models, the box's workspace…). */
function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const full = path.join(dir, d.name);
    if (d.isDirectory()) return filesUnder(full);
    return d.isFile() ? [full] : [];
  });
}

async function allEvents(api: RunningApp): Promise<RecordedEvent[]> {
  return api.app.get<EventStore>(EVENT_STORE).readAll();
}

/**
 * Credentials reach a harness for its run only; a harness that cannot run ends its turn with
 * an error event that says why, never a hung turn.
 */
describe('an agent’s credentials and the turns that cannot run', () => {
  // Shaped like a real key, so nothing but the masking can keep it out of the history.
  const SECRET = `sk-ant-api03-${'Zq9'.repeat(12)}-e2e`;
  let api: RunningApp;

  const session = async (provider: string): Promise<string> => {
    const created = await api.request('POST', '/api/sessions', { title: provider, provider });
    expect(created.status).toBe(201);
    await waitForBox(api, created.body.id);
    return created.body.id as string;
  };

  beforeAll(async () => {
    api = await startApp(undefined, { SESSIONBOXER_BOXES: 'on' });
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

  it('never lets a credential into an event, a read model or a log, however the agent echoes it', async () => {
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
        { fail: 'failing with ${env:ANTHROPIC_API_KEY} in the message' },
      ),
    });
    await turnFinished(api, id, 1);
    const { events } = await conversation(api, id);
    // The harness did see the key (it echoed it), and what was recorded is masked.
    expect(events.find((e: any) => e.type === 'message').text).toBe('••••••••');
    expect(JSON.stringify(events)).toContain('my key is ••••••••');
    const failure = events.find((e: any) => e.type === 'error');
    expect(failure).toMatchObject({
      code: 'script_failed',
      message: 'failing with •••••••• in the message',
    });
    const history = JSON.stringify(await allEvents(api));
    expect(history).toContain('CredentialChanged');
    expect(history).not.toContain(SECRET);
    const settings = await api.request('GET', '/api/settings');
    expect(JSON.stringify(settings.body)).not.toContain(SECRET);
    const leaks = filesUnder(api.dataDir)
      .filter((f) => !f.endsWith(path.join('secrets', 'credentials.json')))
      .filter((f) => fs.readFileSync(f).includes(SECRET));
    expect(leaks).toEqual([]);
  });

  it('fails a claude-code turn whose CLI is not in the box: agent_unavailable', async () => {
    const id = await session('claude-code');
    await api.request('POST', `/api/sessions/${id}/prompts`, { text: 'Fix the tests' });
    expect((await turnFinished(api, id, 1)).status).toBe('failed');
    const error = (await conversation(api, id)).events.find((e: any) => e.type === 'error');
    expect(error.code).toBe('agent_unavailable');
    expect(error.message).toMatch(/claude is not installed in this box/);
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
