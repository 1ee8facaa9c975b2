import * as fs from 'node:fs';
import * as path from 'node:path';
import { settingsDecider, settingsStream } from '@sessionboxer/domain';
import type { EventStore } from '@sessionboxer/event-store';
import { CommandBus } from '../src/infrastructure/command-bus';
import { EVENT_STORE } from '../src/infrastructure/tokens';
import { SettingsService } from '../src/settings';
import { startApp, tempDataDir, type RunningApp } from './harness';

const TOKEN = 'ghp_neverInTheEventLog0123456789';
const HOOK = 'webhook-secret-never-logged';
const ENV_VALUE = 'pg-password-never-logged';

/** Every event of the store, as the bytes an auditor would read. */
async function wholeLog(api: RunningApp): Promise<string> {
  const store = api.app.get<EventStore>(EVENT_STORE);
  return JSON.stringify(await store.readAll({ maxCount: 100_000 }));
}
const secretFile = (dataDir: string) => path.join(dataDir, 'secrets', 'settings-secrets.json');

/**
 * Settings' secrets (GitHub token and webhook secret, MCP servers' env values) are kept in the
 * secret store, never in the event log: the log holds a reference. Stores written by earlier
 * versions, which recorded them in the clear, are sealed at the next start.
 */
describe("settings' secrets stay out of the event log", () => {
  let api: RunningApp;
  afterEach(async () => {
    await api?.close();
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('keeps every value the API is given in the 0600 secret store, and works with it', async () => {
    api = await startApp();
    const patch = {
      github: { token: TOKEN, webhookSecret: HOOK },
      mcpRegistry: [{ name: 'pg', command: ['mcp-pg'], env: { PGPASSWORD: ENV_VALUE } }],
    };
    expect((await api.request('PATCH', '/api/settings', patch)).status).toBe(200);
    const edited = { command: ['mcp-pg', '--v2'], env: { PGPASSWORD: null, MODE: 'ro' } };
    expect((await api.request('PUT', '/api/settings/mcp-registry/servers/pg', edited)).status).toBe(
      200,
    );
    const settings = await api.app.get(SettingsService).current();
    expect(settings.github).toMatchObject({ token: TOKEN, webhookSecret: HOOK });
    expect(settings.mcpRegistry).toEqual([
      { name: 'pg', command: ['mcp-pg', '--v2'], env: { PGPASSWORD: ENV_VALUE, MODE: 'ro' } },
    ]);
    const log = await wholeLog(api);
    expect(log).toContain('SettingsUpdated');
    for (const secret of [TOKEN, HOOK, ENV_VALUE, 'ro']) expect(log).not.toContain(`"${secret}"`);
    expect(fs.statSync(secretFile(api.dataDir)).mode & 0o777).toBe(0o600);
    expect((await api.request('GET', '/api/settings')).body.secretsSet).toEqual({
      githubToken: true,
      githubWebhookSecret: true,
    });

    // Cleared: the store forgets the value once nothing refers to it (after its grace time).
    await api.request('PATCH', '/api/settings', { github: { token: null } });
    expect((await api.app.get(SettingsService).current()).github.token).toBeNull();
  });

  it('refuses a wrong secret naming its field, and stores nothing', async () => {
    api = await startApp();
    const before = await wholeLog(api);
    const bad = await api.request('PATCH', '/api/settings', { github: { token: 'has space' } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/github.token/);
    const long = await api.request('PUT', '/api/settings/mcp-registry/servers/pg', {
      command: ['x'],
      env: { K: 'v'.repeat(10_001) },
    });
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.body)).toMatch(/env/);
    expect(await wholeLog(api)).toBe(before);
    expect(fs.existsSync(secretFile(api.dataDir))).toBe(false);
  });

  it('seals the values an earlier version recorded in the clear, at the next start', async () => {
    const dataDir = tempDataDir();
    api = await startApp(dataDir);
    // What versions before the secret store recorded: the values in SettingsUpdated itself.
    const bus = api.app.get(CommandBus);
    await bus.execute(settingsDecider, settingsStream(), {
      type: 'UpdateSettings',
      data: { patch: { github: { token: TOKEN } } },
      metadata: bus.metadata({ kind: 'person', id: 'admin' }),
    });
    // The app's store of the moment (each start opens its own).
    const last = async () =>
      JSON.stringify(
        await api.app
          .get<EventStore>(EVENT_STORE)
          .readStream(settingsStream(), { direction: 'backwards', maxCount: 1 }),
      );
    expect(await last()).toContain(TOKEN);
    await api.close();

    api = await startApp(dataDir);
    expect(await last()).not.toContain(TOKEN);
    expect((await api.app.get(SettingsService).current()).github.token).toBe(TOKEN);
    // A second start has nothing left to seal.
    const settingsEvents = async () =>
      (await api.app.get<EventStore>(EVENT_STORE).readStream(settingsStream())).length;
    const count = await settingsEvents();
    await api.close();
    api = await startApp(dataDir);
    expect(await settingsEvents()).toBe(count);
  });
});
