import { waitFor } from '../../control-plane/test/box-kit';
import { callTool, createSession, schedule } from '../../control-plane/test/schedule-kit';
import { checkPage } from './browser-kit';
import { useControlPlane } from './session-kit';

/**
 * A scheduled task's page entry says when it last ran and links the sessions its runs
 * started (issue 15: "its sessions are not linked to it"). No boxes: each started session's
 * first turn fails at once, which a run does not wait for.
 */
describe('a scheduled task’s runs in Settings', () => {
  const plane = useControlPlane();

  it('lists its latest runs, newest first, each linking the session it started', async () => {
    const { api } = plane;
    const lead = await createSession(api, 'Scheduler');
    await api.request('PATCH', `/api/sessions/${lead}/policy`, { agentTools: 'all' });
    const created = await callTool(api, lead, 'schedule_create', {
      cron: '*/2 * * * * *',
      name: 'Every two seconds',
      action: { type: 'new_session', prompt: 'Tidy up', title: 'Tidy run', stopAfter: true },
    });
    await waitFor(
      'two runs',
      async () => ((await schedule(api, created.id)).runs as unknown[]).length >= 2,
      15_000,
    );
    await api.request('PATCH', `/api/schedules/${created.id}`, { enabled: false });
    const page = await plane.signedIn();
    await page.getByRole('link', { name: 'Settings' }).click();
    const item = page.getByRole('listitem').filter({
      has: page.getByRole('heading', { name: 'Every two seconds' }),
    });
    await item.getByText(/Last run: (?!never)/).waitFor();
    await item.getByText(/Recent runs \(\d+\)/).click();
    const list = item.getByRole('list', { name: 'Runs of Every two seconds' });
    const links = list.getByRole('link', { name: 'Tidy run' });
    await links.first().waitFor();
    expect(await links.count()).toBeGreaterThanOrEqual(2);
    await checkPage(page, 'schedule-runs');
    await links.first().click();
    await page.getByRole('heading', { level: 1, name: 'Tidy run' }).waitFor();
    // The first link is the newest run's session.
    const [newest] = (await schedule(api, created.id)).runs as { sessionId: string }[];
    expect(page.url()).toContain(`/sessions/${newest.sessionId}`);
    await api.request('DELETE', `/api/schedules/${created.id}`);
  });
});
