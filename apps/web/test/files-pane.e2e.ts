import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkPage } from './browser-kit';
import { paneTab, useControlPlane, workspaceOf } from './session-kit';

const PROBE = '<img src=x onerror="globalThis.__xss=true">';

/**
 * The Files pane (issue 15: ui_open knows a `files` pane, the UI had none): the box's
 * /workspace folder by folder, a text file, an image and a link that leaves the workspace.
 * Boxes are off: the workspace a box would have, made by hand.
 */
describe('the Files pane', () => {
  const plane = useControlPlane();

  it('walks the workspace, previews text and images, and shows agent-chosen names inert', async () => {
    const { api } = plane;
    const id = (await api.request('POST', '/api/sessions', { title: 'Browse files' })).body.id;
    const workspace = workspaceOf(api, id);
    fs.mkdirSync(path.join(workspace, 'src'), { recursive: true });
    fs.writeFileSync(path.join(workspace, 'src', 'main.ts'), `// ${PROBE}\n`);
    fs.writeFileSync(path.join(workspace, PROBE.replace(/\//g, '_')), 'named by an agent');
    // A 1×1 PNG.
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    fs.writeFileSync(path.join(workspace, 'dot.png'), png);
    fs.symlinkSync('/etc', path.join(workspace, 'host-etc'));

    const page = await plane.openView('Browse files');
    await page.evaluate(() => ((globalThis as any).__xss = false));
    await paneTab(page, 'Files').click();
    const root = page.getByRole('list', { name: 'Files in /workspace' });
    await root.getByRole('button', { name: 'src/' }).waitFor();
    await root.getByText('host-etc').waitFor();
    expect(await root.getByRole('button', { name: 'host-etc' }).count()).toBe(0);
    await root.getByText(PROBE.replace(/\//g, '_')).waitFor();

    await root.getByRole('button', { name: 'dot.png' }).click();
    const image = page.getByRole('region', { name: 'Preview of dot.png' }).getByRole('img');
    await image.waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('.file-image');
      return img !== null && img.complete && img.naturalWidth === 1;
    });

    await root.getByRole('button', { name: 'src/' }).click();
    const src = page.getByRole('list', { name: 'Files in /workspace/src' });
    await src.getByRole('button', { name: 'main.ts' }).click();
    const preview = page.getByRole('region', { name: 'Preview of main.ts' });
    await preview.getByText(PROBE, { exact: false }).waitFor();
    await checkPage(page, 'files-pane');
    expect(await page.evaluate(() => (globalThis as any).__xss)).toBe(false);

    await page
      .getByRole('navigation', { name: 'Folder path' })
      .getByRole('button', { name: 'workspace' })
      .click();
    await root.waitFor();
  });
});
