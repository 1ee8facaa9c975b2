import { waitFor } from '../../control-plane/test/box-kit';
import { useControlPlane } from './session-kit';

describe('Settings → API keys and the Sandboxes page', () => {
  const plane = useControlPlane();

  it('makes a key shown once, lists a sandbox made with it, and revokes it', async () => {
    const { api } = plane;
    const page = await plane.signedIn();
    await page.getByRole('link', { name: 'Settings' }).click();
    const keys = page.getByRole('region', { name: 'API keys' });
    await keys.getByLabel('Name').fill('ui-key');
    await keys.getByRole('button', { name: 'Create key' }).click();
    const shown = keys.getByRole('status').locator('code');
    await shown.waitFor();
    const key = (await shown.textContent()) ?? '';
    expect(key).toMatch(/^sbk_/);
    const envs = page.getByRole('region', { name: 'Environments and secrets' });
    await envs.getByLabel('New environment').fill('prod');
    await envs.getByRole('button', { name: 'Create environment' }).click();
    await envs.getByRole('option', { name: 'prod' }).waitFor({ state: 'attached' });
    await envs.locator('select').selectOption('prod');
    await envs.getByLabel('Secret name').fill('UI_TOKEN');
    await envs.getByLabel('Value').fill('ui-secret-value-42');
    await envs.getByRole('button', { name: 'Set secret' }).click();
    await envs.getByText('UI_TOKEN (sandboxes)').waitFor();
    expect(await page.content()).not.toContain('ui-secret-value-42');
    const rest = (tool: string, body: unknown) =>
      api.request('POST', `/v1/${tool}`, body, { authorization: `Bearer ${key}` });
    expect(
      (
        await rest('sandbox_create', {
          name: 'ui-box',
          metadata: { user: '7' },
          environment: 'prod',
          secrets: ['UI_TOKEN'],
        })
      ).status,
    ).toBe(200);

    await page.getByRole('link', { name: 'Sandboxes' }).click();
    const table = page.getByRole('table', { name: 'Sandboxes' });
    const row = table.getByRole('row').filter({ hasText: 'ui-box' });
    await row.waitFor();
    expect(await row.textContent()).toMatch(/ui-box.*running.*small.*5¢\/h.*¢.*user=7/);

    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Revoke ui-key' }).click();
    await waitFor('revoked', async () => (await rest('sandbox_list', {})).status === 401);
    await page.getByRole('region', { name: 'API keys' }).getByText('revoked').waitFor();
    const { body } = await api.request('GET', '/api/orgs/default/sandboxes');
    for (const s of body.sandboxes as { id: string }[]) {
      const { key: admin } = (
        await api.request('POST', '/api/orgs/default/api-keys', {
          name: 'cleanup',
          scopes: ['sandboxes:write'],
        })
      ).body as { key: string };
      await api.request(
        'POST',
        '/v1/sandbox_destroy',
        { sandbox: s.id },
        { authorization: `Bearer ${admin}` },
      );
    }
  });
});
