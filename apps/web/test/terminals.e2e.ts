import type { Page } from 'playwright-core';
import { outputNotice, statusNotice } from '../../control-plane/test/terminal-mcp/mcp-client-kit';
import {
  startTerminalWorld,
  until,
  type TerminalWorld,
} from '../../control-plane/test/terminal-mcp/terminal-kit';
import { checkPage, openBrowser, signIn, type BrowserKit } from './browser-kit';

jest.setTimeout(90_000);

/**
 * The terminal MCP's person side in Chromium: the endpoint-auth card an agent's request puts
 * above every page (who asks, the endpoint, the host key), Allow, and the Terminals view's
 * live xterm rendering with who approved it. The browser's own /api/ui socket is the only
 * approver connected.
 */
describe('SSH terminal approval and the Terminals view', () => {
  let w: TerminalWorld;
  let kit: BrowserKit;
  let page: Page;

  beforeAll(async () => {
    w = await startTerminalWorld();
    await w.disconnectApprover();
    kit = await openBrowser();
    page = kit.page;
    await signIn(page, w.api);
  });
  afterAll(async () => {
    await kit?.close();
    await w?.stop();
  });

  it('a person allows the card in the browser; the Terminals view renders the output live', async () => {
    const c = await w.client();
    const endpointId = await w.endpoint(c);
    const { sessionId } = await until(async () => {
      const r = await c.client.callTool({
        name: 'shellwatch_create_session',
        arguments: { endpointId },
      });
      return r.isError
        ? null
        : (JSON.parse((r.content as { text: string }[])[0].text) as { sessionId: string });
    }, "the browser's socket to count as an approver");

    const card = page.getByRole('article', { name: 'Terminal request for loopback sshd' });
    await card.waitFor();
    await expect(card.textContent()).resolves.toContain('Proof client (granted by admin)');
    await expect(card.textContent()).resolves.toContain(`${w.sshd.user}@127.0.0.1:${w.sshd.port}`);
    await expect(card.textContent()).resolves.toContain('not pinned yet');
    await checkPage(page, 'terminal-approval-card');
    await card.getByRole('button', { name: 'Allow' }).click();
    await c.waitFor(statusNotice(sessionId, 'open'));
    await card.waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'Terminals' }).click();
    await page.getByRole('heading', { name: 'Terminals' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'loopback sshd' });
    await expect(row.textContent()).resolves.toMatch(/open.*admin/);
    await row.getByRole('button', { name: 'Show output of loopback sshd' }).click();
    const xterm = page.getByRole('region', { name: `Output of terminal ${sessionId}` });
    await xterm.locator('.xterm-rows').waitFor();

    await c.call('shellwatch_send_keys', { sessionId, keys: ['text:echo live-$((6*7))', 'enter'] });
    await c.waitFor(outputNotice(sessionId));
    await until(
      async () => (await xterm.locator('.xterm-rows').textContent())?.includes('live-42'),
      'the live xterm to show the echo',
    );
    await checkPage(page, 'terminals-view');
    await c.call('shellwatch_close_session', { sessionId });
    await until(
      async () => /closed/.test((await row.textContent()) ?? ''),
      'the row to say closed',
    );
  });
});
