import { waitFor } from '../../control-plane/test/box-kit';
import { checkPage } from './browser-kit';
import { useControlPlane } from './session-kit';

describe('Settings → Egress', () => {
  const plane = useControlPlane();

  it('shows the default allow list, saves an edited one, and shows it after a reload', async () => {
    const { api } = plane;
    const page = await plane.signedIn();
    await page.getByRole('link', { name: 'Settings' }).click();
    const egress = page.getByRole('region', { name: 'Egress' });
    const field = egress.getByLabel('Allowed hosts');
    await waitFor('the defaults', async () =>
      (await field.inputValue()).includes('api.anthropic.com:443'),
    );
    await checkPage(page, 'settings-egress');

    await field.fill('api.anthropic.com:443\n*.example.org:8443\n');
    await egress.getByRole('button', { name: 'Save egress' }).click();
    await egress.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const saved = (await api.request('GET', '/api/settings/egress')).body;
    expect(saved).toMatchObject({
      allow: ['api.anthropic.com:443', '*.example.org:8443'],
      isDefault: false,
    });

    await field.fill('not a host');
    await egress.getByRole('button', { name: 'Save egress' }).click();
    await egress.getByRole('alert').filter({ hasText: 'not host:port' }).waitFor();

    await page.reload();
    const again = page.getByRole('region', { name: 'Egress' }).getByLabel('Allowed hosts');
    await waitFor(
      'the saved list',
      async () => (await again.inputValue()) === 'api.anthropic.com:443\n*.example.org:8443',
    );
  });
});
