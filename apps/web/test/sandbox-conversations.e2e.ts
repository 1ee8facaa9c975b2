import { call } from '../../control-plane/test/sandbox-kit';
import {
  script,
  startAgentWorld,
  type AgentWorld,
} from '../../control-plane/test/sandbox-agent-kit';
import { openBrowser, signIn, type BrowserKit } from './browser-kit';

/** The Sandboxes page shows a sandbox's agent conversations, each as a transcript. */
let world: AgentWorld;
let kit: BrowserKit;

beforeAll(async () => {
  world = await startAgentWorld();
  kit = await openBrowser();
}, 60_000);
afterAll(async () => {
  await kit?.close();
  await world?.close();
}, 60_000);

it("lists a sandbox's conversations and shows one as a transcript", async () => {
  await call(world.client, 'sandbox_create', { name: 'ui-agents' });
  const said = await call(world.client, 'agent_prompt', {
    sandbox: 'ui-agents',
    harness: 'scripted',
    prompt: script({ say: 'Hello from the sandbox agent' }),
    wait_seconds: 30,
  });
  expect(said.body.status).toBe('finished');
  const { page } = kit;
  await signIn(page, world.api);
  await page.getByRole('link', { name: 'Sandboxes' }).click();
  await page.getByRole('button', { name: 'Conversations of ui-agents' }).click();
  const list = page.getByRole('region', { name: 'Conversations of ui-agents' });
  await list.getByText(/scripted · default · idle · 1 turns/).waitFor();
  await list.getByRole('button', { name: /script/ }).click();
  const transcript = page.getByRole('region', { name: /^Transcript of / });
  await transcript.getByText('Hello from the sandbox agent', { exact: true }).waitFor();
  expect(await transcript.textContent()).toMatch(/Turn 1 finished/);
}, 90_000);
