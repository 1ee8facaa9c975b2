import { APPROVAL_TTL_MS } from '@sessionboxer/domain';
import type { Page } from 'playwright-core';
import { Clock } from '../../control-plane/src/infrastructure/clock';
import { script, turnFinished } from '../../control-plane/test/agent/agent-kit';
import { waitFor } from '../../control-plane/test/box-kit';
import {
  checkPage,
  openSession,
  startsWith,
  stillSamePage,
  transcriptLog,
  treeItem,
} from './browser-kit';
import { useScriptedSession } from './session-kit';

/**
 * Approval cards in the asking agent's transcript. The agent is the scripted harness (a test
 * double of a model-driven agent: it plays a script of real MCP calls) in a real box, calling
 * sessionboxer.session_create under the default "Ask me" policy.
 */
describe('approval cards for an agent’s session_create', () => {
  const leadSession = useScriptedSession('Lead');
  let page: Page;
  let turn = 0;

  const createRequest = (title: string) =>
    script({
      call: 'sessionboxer.session_create',
      args: { title, provider: 'scripted', first_prompt: script({ say: `${title} ready.` }) },
    });
  const card = (title: string) =>
    transcriptLog(page).getByRole('article', { name: 'Approval' }).filter({ hasText: title });
  const cards = async () =>
    (await leadSession.api.request('GET', `/api/sessions/${leadSession.id}/approvals`)).body;

  beforeAll(async () => {
    // session_create is one of the other-sessions tools; "Ask me" is the default creation policy.
    await leadSession.api.request('PATCH', `/api/sessions/${leadSession.id}/policy`, {
      agentTools: 'all',
    });
    page = await leadSession.signedIn();
  }, 60_000);

  it('Allow creates the child: it shows under its creator, and the settled card links to it', async () => {
    const { api, id: lead } = leadSession;
    await leadSession.openView();
    // The prompt goes in through the session view's own prompt box.
    await page.getByLabel('Prompt').fill(createRequest('Helper'));
    await page.getByRole('button', { name: 'Send' }).click();
    turn++;
    const helperCard = card('Helper');
    // "<Agent> wants to create a Session '<title>'" (docs/web-ui.md), the agent named by its harness.
    await helperCard.getByText(/wants to create a Session .Helper./).waitFor({ timeout: 30_000 });
    await helperCard.getByRole('button', { name: 'Deny' }).waitFor();
    // The whole request, to judge it by: what the new session would be told, and where from.
    const fact = (term: string) => helperCard.locator(`dt:text-is("${term}") + dd`).textContent();
    expect(await fact('First prompt')).toBe(script({ say: 'Helper ready.' }));
    expect(await fact('Provider')).toBe('Scripted agent');
    expect(await fact('Environment')).toBe('Docker · Linux');
    expect(await fact('Repositories')).toBe('none');
    expect(await fact('Asked by')).toBe('the agent of Lead');
    expect(await fact('Policy')).toBe(
      '“When the agent creates a session: Ask me”, from the global setting',
    );
    await checkPage(page, 'approval-card-pending');
    expect(await treeItem(page, 'Helper').count()).toBe(0);

    await helperCard.getByRole('button', { name: 'Allow' }).click();
    await helperCard.getByText('Allowed').waitFor();
    const link = helperCard.getByRole('link', { name: /Helper/ });
    await link.waitFor();
    expect(await helperCard.getByRole('button', { name: 'Allow' }).count()).toBe(0);

    const [approval] = await cards();
    expect(approval).toMatchObject({ status: 'allowed', result: { title: 'Helper' } });
    const child = approval.result.sessionId as string;

    // In the sidebar: inside the creator's group, saying whose child it is.
    const helperItem = treeItem(page, 'Lead')
      .getByRole('group')
      .getByRole('treeitem', {
        name: startsWith('Helper'),
      });
    await helperItem.waitFor();
    await helperItem.getByText('child of Lead').waitFor();
    expect(await stillSamePage(page)).toBe(true);
    await checkPage(page, 'approval-card-allowed');

    await link.click();
    await page.getByRole('heading', { level: 1, name: 'Helper' }).waitFor();
    const session = (await api.request('GET', `/api/sessions/${child}`)).body;
    expect(session).toMatchObject({ title: 'Helper', createdBy: { sessionId: lead } });
    await checkPage(page, 'child-session-view');
    await turnFinished(api, lead, turn, 30_000);
  }, 90_000);

  it('Deny settles the card as "Denied" and creates nothing', async () => {
    const { api, id: lead } = leadSession;
    await openSession(page, 'Lead');
    await api.request('POST', `/api/sessions/${lead}/prompts`, { text: createRequest('Second') });
    turn++;
    const second = card('Second');
    const reason = second.getByLabel('Reason for denying (optional)');
    await reason.waitFor({ timeout: 30_000 });
    // The server's rule, which the field mirrors: refused with the field named, nothing changed.
    const asked = (await cards()).find((c: any) => c.summary.includes('Second'));
    const tooLong = await api.request('POST', `/api/approvals/${asked.id}/deny`, {
      reason: 'x'.repeat(501),
    });
    expect(tooLong.status).toBe(400);
    expect(JSON.stringify(tooLong.body)).toMatch(/reason/);
    expect((await cards()).find((c: any) => c.id === asked.id).status).toBe('pending');
    await reason.fill('x'.repeat(501));
    await second.getByRole('alert').filter({ hasText: 'at most 500 characters' }).waitFor();
    expect(await second.getByRole('button', { name: 'Deny' }).isDisabled()).toBe(true);
    await reason.fill('  not <b>before</b> the release ');
    await second.getByRole('button', { name: 'Deny' }).click();
    await second.getByText('Denied', { exact: true }).waitFor();
    await second.getByText('Denied by admin: not <b>before</b> the release').waitFor();
    expect(await second.getByRole('button', { name: 'Allow' }).count()).toBe(0);
    await checkPage(page, 'approval-card-denied');
    expect((await cards()).find((c: any) => c.summary.includes('Second'))).toMatchObject({
      status: 'denied',
      answeredBy: 'admin',
      reason: 'not <b>before</b> the release',
    });
    const titles = (await api.request('GET', '/api/sessions')).body.map((s: any) => s.title);
    expect(titles).not.toContain('Second');
    expect(await treeItem(page, 'Second').count()).toBe(0);
    await turnFinished(api, lead, turn, 30_000);
  }, 60_000);

  it('a card nobody answers shows expired once its deadline passes', async () => {
    const { api, id: lead } = leadSession;
    // No setting shortens the 10 minutes: the app's Clock (its one source of time) runs
    // 10 minutes minus a few seconds behind while the agent asks, so the card's deadline is a
    // few real seconds away. The expiry job then fires on its real timer, as in production.
    const clock = api.app.get(Clock);
    const aheadMs = 6_000;
    const realNow = clock.now.bind(clock);
    clock.now = () => new Date(realNow().getTime() - (APPROVAL_TTL_MS - aheadMs));
    let pending: any;
    try {
      await api.request('POST', `/api/sessions/${lead}/prompts`, { text: createRequest('Third') });
      turn++;
      pending = await waitFor(
        'the third card',
        async () => (await cards()).find((c: any) => c.summary.includes('Third')),
        30_000,
      );
    } finally {
      delete (clock as { now?: unknown }).now;
    }
    expect(pending.status).toBe('pending');
    const left = Date.parse(pending.expiresAt) - Date.now();
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(aheadMs);

    const third = card('Third');
    await third.waitFor();
    await third
      .getByText('Expired: nobody answered in 10 minutes')
      .waitFor({ timeout: aheadMs + 15_000 });
    expect(await third.getByRole('button', { name: 'Allow' }).count()).toBe(0);
    await checkPage(page, 'approval-card-expired');
    // The job recorded it in the log, not only the read side's deadline check.
    const events = (await api.request('GET', `/api/streams/approval-${pending.id}/events`)).body;
    expect(JSON.stringify(events)).toContain('ApprovalExpired');
    expect((await cards()).find((c: any) => c.id === pending.id).status).toBe('expired');
    await turnFinished(api, lead, turn, 30_000);
  }, 60_000);
});
