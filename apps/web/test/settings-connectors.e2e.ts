import type { Page } from 'playwright-core';
import { SettingsService } from '../../control-plane/src/settings';
import { waitFor } from '../../control-plane/test/box-kit';
import { checkPage } from './browser-kit';
import { useControlPlane } from './session-kit';

const TOKEN = 'ghp_settingsConnectorsToken123';
const ENV_SECRET = 'mcp-env-value-never-shown';

/**
 * What the PRs pane and the agents' tools need, set from Settings (issue 15): the GitHub token
 * and webhook secret (never shown back), the poll interval, the git identity, and the MCP
 * registry one server at a time. Each form checks the server's rules before sending.
 */
describe('Settings → GitHub, Git identity and MCP registry', () => {
  const plane = useControlPlane({ browserPerTest: true });
  const settingsNow = () => plane.api.app.get(SettingsService).current();
  const open = async (): Promise<Page> => {
    const page = await plane.signedIn();
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'GitHub' }).waitFor();
    return page;
  };

  it('sets and clears the GitHub token without ever showing it, and checks the poll interval', async () => {
    const page = await open();
    const github = page.getByRole('region', { name: 'GitHub' });
    await github.getByLabel(/^GitHub token/).fill(TOKEN);
    await github.getByRole('button', { name: 'Set GitHub token' }).click();
    await github.getByText('GitHub token (set)').waitFor();
    expect((await settingsNow()).github.token).toBe(TOKEN);
    expect(await github.getByLabel(/^GitHub token/).inputValue()).toBe('');
    expect(await page.content()).not.toContain(TOKEN);
    expect(JSON.stringify((await plane.api.request('GET', '/api/settings')).body)).not.toContain(
      TOKEN,
    );

    const poll = github.getByLabel('Poll every (seconds)');
    await poll.fill('5');
    await github.getByRole('button', { name: 'Save GitHub' }).click();
    await github.getByRole('alert').filter({ hasText: 'from 10 to 3600' }).waitFor();
    expect((await settingsNow()).github.pollSeconds).toBe(60);
    await poll.fill('30');
    await github.getByRole('button', { name: 'Save GitHub' }).click();
    await github.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect((await settingsNow()).github).toMatchObject({ pollSeconds: 30, token: TOKEN });
    await checkPage(page, 'settings-github');

    await github.getByRole('button', { name: 'Clear GitHub token' }).click();
    await github.getByText('GitHub token (not set)').waitFor();
    expect((await settingsNow()).github.token).toBeNull();
  });

  it('saves a git identity after checking its email, and goes back to the default', async () => {
    const page = await open();
    const identity = page.getByRole('region', { name: 'Git identity' });
    await identity.getByLabel('Name').fill('Ada Lovelace');
    await identity.getByLabel('Email').fill('ada-at-example');
    await identity.getByRole('button', { name: 'Save Git identity' }).click();
    await identity.getByRole('alert').filter({ hasText: 'is not an email address' }).waitFor();
    expect((await settingsNow()).gitIdentity).toBeNull();
    await identity.getByLabel('Email').fill('ada@example.com');
    await identity.getByRole('button', { name: 'Save Git identity' }).click();
    await identity.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect((await settingsNow()).gitIdentity).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
    });

    await page.reload();
    const again = page.getByRole('region', { name: 'Git identity' });
    await waitFor(
      'the identity after a reload',
      async () => (await again.getByLabel('Name').inputValue()) === 'Ada Lovelace',
    );
    await again.getByRole('button', { name: 'Use the default identity' }).click();
    await waitFor('the default identity', async () => (await settingsNow()).gitIdentity === null);
  });

  it('adds, replaces (keeping a secret) and removes an MCP server; agent text stays inert', async () => {
    const page = await open();
    await page.evaluate(() => ((globalThis as any).__xss = false));
    const registry = page.getByRole('region', { name: 'MCP registry' });
    const form = registry.getByRole('form', { name: 'Add or replace a server' });
    await form.getByLabel('Server name').fill('desktop');
    await form.getByLabel(/^Command/).fill('node');
    await form.getByRole('button', { name: 'Save server' }).click();
    await form.getByRole('alert').filter({ hasText: "built-in server's name" }).waitFor();

    await form.getByLabel('Server name').fill('probe');
    const xss = '<img src=x onerror="globalThis.__xss=true">';
    await form.getByLabel(/^Command/).fill(`node\nserver.js\n${xss}`);
    await form.getByLabel(/^Environment/).fill(`API_SECRET=${ENV_SECRET}\nMODE=fast`);
    await form.getByRole('button', { name: 'Save server' }).click();
    const servers = registry.getByRole('list', { name: 'MCP servers' });
    await servers.getByText('env: API_SECRET, MODE').waitFor();
    await servers.getByText(`node server.js ${xss}`).waitFor();
    expect(await page.evaluate(() => (globalThis as any).__xss)).toBe(false);
    expect(await page.content()).not.toContain(ENV_SECRET);
    const entry = () => settingsNow().then((s) => s.mcpRegistry.find((e) => e.name === 'probe'));
    expect(await entry()).toEqual({
      name: 'probe',
      command: ['node', 'server.js', xss],
      env: { API_SECRET: ENV_SECRET, MODE: 'fast' },
    });

    // Replacing it: API_SECRET alone keeps its value, which the page never had.
    await form.getByLabel('Server name').fill('probe');
    await form.getByLabel(/^Command/).fill('node\nv2.js');
    await form.getByLabel(/^Environment/).fill('API_SECRET');
    await form.getByRole('button', { name: 'Save server' }).click();
    await servers.getByText('node v2.js').waitFor();
    expect(await entry()).toEqual({
      name: 'probe',
      command: ['node', 'v2.js'],
      env: { API_SECRET: ENV_SECRET },
    });
    await checkPage(page, 'settings-mcp-registry');

    await servers.getByRole('button', { name: 'Remove probe' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove the MCP server “probe”?' });
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await registry.getByText('No servers yet.').waitFor();
    expect(await entry()).toBeUndefined();
  });
});
