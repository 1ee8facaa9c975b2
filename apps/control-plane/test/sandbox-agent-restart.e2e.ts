import * as fs from 'node:fs';
import { ModelProviderDouble } from './doubles/model-provider/model-provider-double';
import { startApp, tempDataDir } from './harness';
import { script, untilTurnFinished } from './sandbox-agent-kit';
import { call, makeKey, mcpClient } from './sandbox-kit';

/**
 * A control plane restarted while a sandbox's turn runs: the turn (its CLI went with the old
 * process) fails with agent_lost at the next look, and the prompt queued behind it runs.
 */
it('fails a turn a restart took and runs the queued prompt after it', async () => {
  const double = await ModelProviderDouble.start();
  const dataDir = tempDataDir();
  const env = {
    SESSIONBOXER_BOXES: 'off',
    SESSIONBOXER_SANDBOX_SCRIPTED: 'on',
    SESSIONBOXER_ANTHROPIC_BASE_URL: double.url,
  };
  let api = await startApp(dataDir, env);
  const { key } = await makeKey(api);
  let client = await mcpClient(api, key);
  try {
    await call(client, 'sandbox_create', { name: 'restarts' });
    const first = await call(client, 'agent_prompt', {
      sandbox: 'restarts',
      harness: 'scripted',
      prompt: script({ sleep: 60 }),
      wait_seconds: 0,
    });
    expect(first.body.status).toBe('running');
    const conversation = first.body.conversation as string;
    const queued = await call(client, 'agent_prompt', {
      sandbox: 'restarts',
      conversation,
      prompt: script({ say: 'after the restart' }),
      wait_seconds: 0,
    });
    expect(queued.body).toMatchObject({ status: 'queued', turn: 2 });
    await client.close();
    await api.close();

    api = await startApp(dataDir, env);
    client = await mcpClient(api, key);
    const events = await untilTurnFinished(client, 'restarts', conversation, 2);
    expect(events.filter((e) => e.turn === 1).map((e) => e.type)).toEqual([
      'prompt',
      'error',
      'turn_finished',
    ]);
    expect(events.find((e) => e.type === 'error')).toMatchObject({ code: 'agent_lost' });
    expect(events.find((e) => e.turn === 1 && e.type === 'turn_finished')!.status).toBe('failed');
    const said = events.filter((e) => e.turn === 2 && e.type === 'message');
    expect(said.map((e) => e.text)).toEqual(['after the restart']);
    await call(client, 'sandbox_destroy', { sandbox: 'restarts' });
  } finally {
    await client.close();
    await api.close();
    await double.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}, 120_000);
