import { checkPage, markPage, openSession, sidebar, stillSamePage, treeItem } from './browser-kit';
import { useControlPlane } from './session-kit';

/** The sidebar tree follows the `sidebar` frames: no reload, whoever created the session. */
describe('the sidebar tree, live', () => {
  const plane = useControlPlane({ browserPerTest: true });

  it('shows a session made with the "New session" form, and one made over REST by someone else', async () => {
    const { api } = plane;
    const page = await plane.signedIn();
    await markPage(page);

    await page.getByRole('button', { name: 'New session' }).click();
    await page.getByLabel('Title').waitFor();
    await checkPage(page, 'new-session-form');
    await page.getByLabel('Title').fill('Frontend polish');
    await page.getByRole('button', { name: 'Create session' }).click();
    await treeItem(page, 'Frontend polish').waitFor();
    const created = (await api.request('GET', '/api/sessions')).body as any[];
    expect(created.map((s) => s.title)).toEqual(['Frontend polish']);
    await checkPage(page, 'sidebar-with-session');

    // Someone else (another REST client) creates one: it appears without a reload.
    const other = await api.request('POST', '/api/sessions', { title: 'Made elsewhere' });
    expect(other.status).toBe(201);
    await treeItem(page, 'Made elsewhere').waitFor();
    expect(await sidebar(page).getByRole('treeitem').count()).toBe(2);
    expect(await stillSamePage(page)).toBe(true);

    // A rename over REST shows in the open view's heading and in the tree.
    await openSession(page, 'Made elsewhere');
    await checkPage(page, 'session-view');
    await api.request('PATCH', `/api/sessions/${other.body.id}`, { title: 'Renamed elsewhere' });
    await page.getByRole('heading', { level: 1, name: 'Renamed elsewhere' }).waitFor();
    await treeItem(page, 'Renamed elsewhere').waitFor();
    expect(await stillSamePage(page)).toBe(true);
  });
});
