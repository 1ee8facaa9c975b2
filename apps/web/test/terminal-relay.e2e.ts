import * as fs from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Page } from 'playwright-core';
import { call, mcpClientInBox, waitForBox } from '../../control-plane/test/box-kit';
import {
  startTerminalWorld,
  until,
  type TerminalWorld,
} from '../../control-plane/test/terminal-mcp/terminal-kit';
import { checkPage, openBrowser, signIn, type BrowserKit } from './browser-kit';

jest.setTimeout(120_000);

/**
 * A person gives sessions' agents the terminal MCP in Settings, and answers the card that a
 * session's agent (in a real box, through the daemon's relay) raises, inside that session's
 * transcript in Chromium.
 */
describe("the terminal MCP for sessions' agents, in the web UI", () => {
  let w: TerminalWorld;
  let kit: BrowserKit;
  let page: Page;
  let agent: Client | null = null;

  beforeAll(async () => {
    w = await startTerminalWorld({ SESSIONBOXER_BOXES: 'on' });
    await w.disconnectApprover();
    kit = await openBrowser();
    page = kit.page;
    await signIn(page, w.api);
  });
  afterAll(async () => {
    await agent?.close().catch(() => undefined);
    await kit?.close();
    await w?.stop();
    if (w) fs.rmSync(w.api.dataDir, { recursive: true, force: true });
  });

  it('Settings gives it; the card shows in the asking session and Allow opens the terminal', async () => {
    await page.goto(`${w.api.url}/settings`);
    const give = page.getByLabel("Give sessions' agents the terminal MCP", { exact: false });
    await give.check();
    await until(async () => {
      const s = (await w.api.request('GET', '/api/settings')).body.settings;
      return s.mcpRegistry.some((e: { relay?: string }) => e.relay === 'terminals');
    }, 'the registry to give terminals');
    await expect(give.isChecked()).resolves.toBe(true);

    const e = await w.api.request('POST', '/api/terminals/endpoints', {
      name: 'loopback sshd',
      host: '127.0.0.1',
      port: w.sshd.port,
      user: w.sshd.user,
      keyId: w.keyId,
    });
    const created = await w.api.request('POST', '/api/sessions', { title: 'Ops agent' });
    const sessionId = created.body.id as string;
    const session = await waitForBox(w.api, sessionId);
    await until(
      () => fs.readFileSync(session.box.mcpJsonPath, 'utf8').includes('"terminals"'),
      ".mcp.json's terminals entry",
    );
    await page.goto(`${w.api.url}/sessions/${sessionId}`);
    const transcript = page.getByRole('log', { name: 'Transcript' });
    await transcript.waitFor();

    agent = await mcpClientInBox(w.api, sessionId, 'terminals');
    const c = agent;
    const opened = await until(async () => {
      const r = await c.callTool({
        name: 'shellwatch_create_session',
        arguments: { endpointId: e.body.endpointId },
      });
      return r.isError ? null : JSON.parse((r.content as { text: string }[])[0].text);
    }, "the browser's socket to count as an approver");

    await transcript.getByText('asked to open an SSH terminal on loopback sshd').waitFor();
    const card = transcript.getByRole('article', { name: 'Terminal request for loopback sshd' });
    await expect(card.textContent()).resolves.toContain('the agent of session “Ops agent”');
    // Here, the card is the transcript's alone: the stack above other pages leaves it out.
    const cards = page.getByRole('article', { name: 'Terminal request for loopback sshd' });
    await expect(cards.count()).resolves.toBe(1);
    await checkPage(page, 'terminal-card-in-transcript');
    await card.getByRole('button', { name: 'Allow' }).click();
    await card.waitFor({ state: 'detached' });
    await transcript.getByText('the SSH terminal on loopback sshd was allowed').waitFor();
    await until(async () => {
      const list = await call(c, 'shellwatch_list_sessions');
      return (
        list.find((s: { sessionId: string }) => s.sessionId === opened.sessionId)?.status === 'open'
      );
    }, 'the terminal to open');
  });
});
