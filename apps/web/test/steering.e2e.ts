import type { Page } from 'playwright-core';
import { conversation, turnFinished } from '../../control-plane/test/agent/agent-kit';
import { checkPage, stillSamePage, transcriptLog } from './browser-kit';
import { script, useScriptedSession } from './session-kit';

/**
 * Steering a running turn from the session view: prompts sent while the agent works wait in
 * the Queue, where the person edits and drops them; Interrupt ends the turn and the queue's
 * next prompt, as edited, runs. The agent is the scripted harness in a real box.
 */
describe('steering a running turn from the session view', () => {
  const session = useScriptedSession('Steering');

  const sendFromUi = async (page: Page, text: string) => {
    await page.getByLabel('Prompt').fill(text);
    await page.getByRole('button', { name: 'Send' }).click();
    // Sent: the box empties (it keeps the text when the server refuses it).
    await page.waitForFunction(
      () => (document.getElementById('prompt') as HTMLTextAreaElement | null)?.value === '',
    );
  };
  const queueOverRest = async () =>
    (await session.api.request('GET', `/api/sessions/${session.id}/queue`)).body;

  it('queues prompts sent during a turn; Edit and Drop change the queue; Interrupt runs the edited one next', async () => {
    const { api, id } = session;
    const page = await session.openView();
    const log = transcriptLog(page);
    const queue = page.getByRole('list', { name: 'Queue' });
    const interrupt = page.getByRole('button', { name: 'Interrupt' });
    expect(await interrupt.count()).toBe(0);

    // Turn 1 runs long: it only ends by the Interrupt button.
    await sendFromUi(page, script({ say: 'Working on it for a while.' }, { sleep: 120 }));
    await log.getByText('Working on it for a while.', { exact: true }).waitFor({ timeout: 30_000 });
    await interrupt.waitFor();

    const first = script({ say: 'The first queued prompt ran.' });
    const second = script({ say: 'The second queued prompt ran.' });
    const edited = script({ say: 'The edited prompt ran.' });
    await sendFromUi(page, first);
    await sendFromUi(page, second);
    const items = queue.getByRole('listitem');
    await items.nth(1).waitFor();
    expect(await items.count()).toBe(2);
    expect(await items.nth(0).textContent()).toContain(first);
    expect(await items.nth(1).textContent()).toContain(second);
    const queued = await queueOverRest();
    expect(queued.map((q: any) => [q.position, q.text])).toEqual([
      [1, first],
      [2, second],
    ]);
    expect(queued[0].from).toEqual({ kind: 'person', id: api.credentials.username });
    await checkPage(page, 'steering-queue');

    // Edit the first inline.
    await items.nth(0).getByRole('button', { name: 'Edit' }).click();
    const field = items.nth(0).getByLabel('Edit queued prompt');
    expect(await field.inputValue()).toBe(first);
    await checkPage(page, 'steering-queue-editing');
    await field.fill(edited);
    await items.nth(0).getByRole('button', { name: 'Save' }).click();
    await items.nth(0).getByText(edited, { exact: true }).waitFor();
    expect(await items.nth(0).getByLabel('Edit queued prompt').count()).toBe(0);
    expect((await queueOverRest()).map((q: any) => q.text)).toEqual([edited, second]);

    // Drop the second.
    await items.nth(1).getByRole('button', { name: 'Drop' }).click();
    await queue.getByText(second).waitFor({ state: 'detached' });
    expect(await items.count()).toBe(1);
    const left = await queueOverRest();
    expect(left.map((q: any) => [q.id, q.position, q.text])).toEqual([[queued[0].id, 1, edited]]);

    // Interrupt: turn 1 ends as interrupted, and the edited prompt runs as turn 2.
    await interrupt.click();
    await log.getByText(/^Turn 1 interrupted/).waitFor({ timeout: 15_000 });
    await log.getByText('The edited prompt ran.', { exact: true }).waitFor({ timeout: 30_000 });
    await log.getByText(/^Turn 2 finished/).waitFor({ timeout: 30_000 });
    await page.getByText('Nothing queued.').waitFor();
    expect(await items.count()).toBe(0);
    await interrupt.waitFor({ state: 'detached' });
    expect(await stillSamePage(page)).toBe(true);
    await checkPage(page, 'steering-after-interrupt');

    // What the page showed is what the control plane recorded.
    expect((await turnFinished(api, id, 1)).status).toBe('interrupted');
    expect((await turnFinished(api, id, 2)).status).toBe('finished');
    expect(await queueOverRest()).toEqual([]);
    const { events, conversation: header } = await conversation(api, id);
    const prompts = events.filter((e: any) => e.type === 'prompt');
    expect(prompts.map((p: any) => [p.turn, p.text])).toEqual([
      [1, script({ say: 'Working on it for a while.' }, { sleep: 120 })],
      [2, edited],
    ]);
    const said = events.filter((e: any) => e.type === 'message').map((e: any) => e.text);
    expect(said).toEqual(['Working on it for a while.', 'The edited prompt ran.']);
    expect(header).toMatchObject({ turns: 2, queued: 0, currentTurn: null });
  }, 120_000);
});
