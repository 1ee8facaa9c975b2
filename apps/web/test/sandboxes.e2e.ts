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
    const rest = (tool: string, body: unknown) =>
      api.request('POST', `/v1/${tool}`, body, { authorization: `Bearer ${key}` });
    expect((await rest('sandbox_create', { name: 'ui-box', metadata: { user: '7' } })).status).toBe(
      200,
    );

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
