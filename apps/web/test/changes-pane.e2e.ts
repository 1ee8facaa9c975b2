import type { LocalBoxDriver } from '../../control-plane/src/boxes/driver';
import { BOX_DRIVER } from '../../control-plane/src/infrastructure/tokens';
import { runInBox } from '../../control-plane/src/repositories/box-git';
import { forgeAuthorization } from '../../control-plane/src/repositories/host-git';
import { waitForBox } from '../../control-plane/test/box-kit';
import {
  startGitHttpDouble,
  type GitHttpDouble,
} from '../../control-plane/test/doubles/git-http-server';
import { paneTab, useControlPlane } from './session-kit';

const TOKEN = 'ghp_browserChangesPane0123456789';

/**
 * The Changes pane in a real browser: a session on a repository (cloned from the forge double
 * into a real box), a file edited and one added in the box, both shown file by file.
 */
describe('the Changes pane', () => {
  let forge: GitHttpDouble;
  let sessionId = '';
  const plane = useControlPlane({
    boxes: true,
    setup: async (api) => {
      forge = await startGitHttpDouble({ expectedAuthorization: forgeAuthorization(TOKEN) });
      forge.createRepo('app', { 'README.md': '# app\n' });
      await api.request('PATCH', '/api/settings', { github: { token: TOKEN } });
      await api.request('POST', '/api/settings/repositories', {
        name: 'app',
        cloneUrl: forge.repoUrl('app'),
      });
      const created = await api.request('POST', '/api/sessions', {
        title: 'Changes test',
        provider: 'scripted',
        repos: ['app'],
      });
      sessionId = created.body.id;
      await waitForBox(api, sessionId);
    },
  });
  afterAll(async () => {
    await forge?.close();
  });

  it("shows the session's changed files against its base branch, with their patches", async () => {
    const driver = plane.api.app.get<LocalBoxDriver>(BOX_DRIVER);
    const write = (file: string, text: string) =>
      runInBox(driver, sessionId, ['sh', '-c', 'printf "%s" "$1" > "$2"', 'sh', text, file], {
        cwd: '/workspace/app',
      });
    await write('README.md', '# app\nEdited in the box.\n');
    await write('NOTES.md', 'a note\n');
    const page = await plane.openView('Changes test');
    await paneTab(page, 'Changes').click();
    const files = page.getByRole('list', { name: 'Files changed in app' });
    const readme = files.getByRole('listitem').filter({ hasText: 'README.md' });
    await readme.getByText('Modified').waitFor({ timeout: 15_000 });
    await readme.getByText('+1 −0').waitFor();
    const notes = files.getByRole('listitem').filter({ hasText: 'NOTES.md' });
    await notes.getByText('Added').waitFor();
    await readme.locator('summary').click();
    await readme.getByText('+Edited in the box.').waitFor();
    expect(await files.getByRole('listitem').count()).toBe(2);
  });
});
