import type { Locator, Page } from 'playwright-core';
import { waitFor } from '../../control-plane/test/box-kit';
import { checkPage, openSession, sidebar } from './browser-kit';
import { useControlPlane } from './session-kit';

const CREATION = 'When the agent creates a session';

/** Waits until the select labelled `label` in `scope` shows the option `option`. */
async function showsOption(scope: Locator, label: string, option: string): Promise<void> {
  await scope
    .getByLabel(label)
    .locator('option:checked')
    .filter({ hasText: new RegExp(`^\\s*${option.replace(/[()]/g, '\\$&')}\\s*$`) })
    .waitFor({ state: 'attached' });
}

/** Waits until the field labelled `label` holds `value`. */
async function holds(scope: Locator, label: string, value: string): Promise<void> {
  const field = scope.getByLabel(label, { exact: true });
  await waitFor(`${label} to hold ${value}`, async () => (await field.inputValue()) === value);
}

const section = (page: Page, name: string): Locator => page.getByRole('region', { name });

/**
 * The contract names no save button: a section may save each change at once. When it has
 * one ("Save …" or "Apply"), click it.
 */
async function saveIfAsked(scope: Locator): Promise<void> {
  const button = scope.getByRole('button', { name: /^(Save\b|Apply$)/ });
  if ((await button.count()) > 0) await button.first().click();
}

describe('Settings and Session settings persist', () => {
  const plane = useControlPlane({ browserPerTest: true });

  it("a session's own MCP & connectors policy, set under Session settings, shows after a reload", async () => {
    const { api } = plane;
    const id = (await api.request('POST', '/api/sessions', { title: 'Policy test' })).body.id;
    const page = await plane.signedIn();
    await openSession(page, 'Policy test');
    await page.getByRole('button', { name: 'Session settings' }).click();
    const settings = section(page, 'Session settings');
    // Following the global default until the session sets its own.
    await showsOption(settings, CREATION, 'Global default (Ask me)');
    await checkPage(page, 'session-settings');

    await settings.getByLabel(CREATION).selectOption({ label: 'Do not ask' });
    await settings.getByLabel('Agent tools').selectOption({ label: 'All sessions' });
    await saveIfAsked(settings);
    await waitFor('the session policy to be saved', async () => {
      const { own } = (await api.request('GET', `/api/sessions/${id}/policy`)).body;
      return own.sessionCreation === 'dont_ask' && own.agentTools === 'all';
    });
    const global = (await api.request('GET', '/api/settings')).body.settings.sessionboxer;
    expect(global).toMatchObject({ sessionCreation: 'ask', agentTools: 'session' });

    await page.reload();
    await sidebar(page).waitFor();
    await page.getByRole('heading', { level: 1, name: 'Policy test' }).waitFor();
    await page.getByRole('button', { name: 'Session settings' }).click();
    const again = section(page, 'Session settings');
    await showsOption(again, CREATION, 'Do not ask');
    await showsOption(again, 'Agent tools', 'All sessions');
    await checkPage(page, 'session-settings-after-reload');
  });

  it('Global settings and MCP & connectors, changed on the Settings page, show after a reload', async () => {
    const { api } = plane;
    const page = await plane.signedIn();
    await page.getByRole('link', { name: 'Settings' }).click();
    const global = section(page, 'Global settings');
    const mcp = section(page, 'MCP & connectors');
    await global.waitFor();
    await page.getByRole('heading', { name: 'Scheduled tasks' }).waitFor();
    await showsOption(mcp, CREATION, 'Ask me');
    await holds(mcp, 'Global cap', '10');
    await checkPage(page, 'settings');

    await global.getByLabel('Default model').fill('opus-ui-test');
    await saveIfAsked(global);
    await mcp.getByLabel(CREATION).selectOption({ label: 'Do not ask' });
    await mcp.getByLabel('Global cap').fill('7');
    await saveIfAsked(mcp);
    await waitFor('the settings to be saved', async () => {
      const saved = (await api.request('GET', '/api/settings')).body.settings;
      return (
        saved.defaults.model === 'opus-ui-test' &&
        saved.sessionboxer.sessionCreation === 'dont_ask' &&
        saved.sessionboxer.globalCap === 7
      );
    });

    await page.reload();
    await section(page, 'MCP & connectors').waitFor();
    await holds(section(page, 'Global settings'), 'Default model', 'opus-ui-test');
    await showsOption(section(page, 'MCP & connectors'), CREATION, 'Do not ask');
    await holds(section(page, 'MCP & connectors'), 'Global cap', '7');
    await checkPage(page, 'settings-after-reload');
  });

  it('a credential set on the Settings page is kept, never shown back, and can be cleared', async () => {
    const { api } = plane;
    const page = await plane.signedIn();
    await page.getByRole('link', { name: 'Settings' }).click();
    const credentials = section(page, 'Credentials');
    const field = credentials.getByLabel(/^Anthropic API key/);
    await field.waitFor();
    await credentials.getByText('(not set)').first().waitFor();
    const secret = 'sk-ant-test-0123456789';
    await field.fill(secret);
    await credentials.getByRole('button', { name: 'Set Anthropic API key' }).click();
    await credentials.getByRole('button', { name: 'Clear Anthropic API key' }).waitFor();
    expect(await field.inputValue()).toBe('');
    const listed = (await api.request('GET', '/api/settings/credentials')).body;
    expect(listed).toContainEqual(expect.objectContaining({ name: 'anthropicApiKey', set: true }));
    await page.reload();
    await credentials.getByRole('button', { name: 'Clear Anthropic API key' }).waitFor();
    // The value never comes back to the page.
    expect(await page.content()).not.toContain(secret);
    await checkPage(page, 'settings-credentials');
    await credentials.getByRole('button', { name: 'Clear Anthropic API key' }).click();
    await credentials.getByRole('button', { name: 'Clear Anthropic API key' }).waitFor({
      state: 'detached',
    });
    const after = (await api.request('GET', '/api/settings/credentials')).body;
    expect(after).toContainEqual(expect.objectContaining({ name: 'anthropicApiKey', set: false }));
  });
});
