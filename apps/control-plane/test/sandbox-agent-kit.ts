import * as fs from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ModelProviderDouble } from './doubles/model-provider/model-provider-double';
import { startApp, type RunningApp } from './harness';
import { call, makeKey, mcpClient } from './sandbox-kit';

/** The spec's fields of each agent event type (besides seq, at, turn and type). */
export const EVENT_FIELDS: Record<string, string[]> = {
  prompt: ['text', 'model'],
  message: ['text'],
  tool_call: ['id', 'name', 'input'],
  tool_result: ['id', 'output', 'error'],
  turn_finished: ['status', 'input_tokens', 'output_tokens'],
  error: ['code', 'message'],
};

/** Every event has exactly seq, at, turn, type and its type's fields. */
export function expectSpecEvent(e: Record<string, unknown>): void {
  const fields = EVENT_FIELDS[e.type as string];
  expect(fields).toBeDefined();
  expect(Object.keys(e).sort()).toEqual(['at', 'seq', 'turn', 'type', ...fields].sort());
  expect(Number.isInteger(e.seq)).toBe(true);
  expect(Number.isInteger(e.turn)).toBe(true);
  expect(Number.isNaN(Date.parse(e.at as string))).toBe(false);
}

export interface AgentWorld {
  api: RunningApp;
  double: ModelProviderDouble;
  client: Client;
  close(): Promise<void>;
}

/**
 * A control plane whose sandboxes' agents reach a model-provider double (through the sandbox's
 * edge relay, with the sandbox's own key), the scripted harness enabled, and an MCP client.
 */
export async function startAgentWorld(env: Record<string, string> = {}): Promise<AgentWorld> {
  const double = await ModelProviderDouble.start();
  const api = await startApp(undefined, {
    SESSIONBOXER_BOXES: 'off',
    SESSIONBOXER_ANTHROPIC_BASE_URL: double.url,
    SESSIONBOXER_SANDBOX_SCRIPTED: 'on',
    ...env,
  });
  const client = await mcpClient(api, (await makeKey(api)).key);
  return {
    api,
    double,
    client,
    async close() {
      for (const s of (await call(client, 'sandbox_list')).body?.sandboxes ?? []) {
        await call(client, 'sandbox_destroy', { sandbox: s.id });
      }
      await client.close();
      await api.close();
      await double.close();
      fs.rmSync(api.dataDir, { recursive: true, force: true });
    },
  };
}

/** Reads a conversation's events until its turn `turn` has finished. */
export async function untilTurnFinished(
  client: Client,
  sandbox: string,
  conversation: string,
  turn: number,
  timeoutMs = 90_000,
): Promise<Record<string, any>[]> {
  const all: Record<string, any>[] = [];
  let after = 0;
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const r = await call(client, 'agent_conversations', { sandbox, conversation, after });
    if (r.isError) throw new Error(JSON.stringify(r.body));
    all.push(...r.body.events);
    after = r.body.next_after;
    if (all.some((e) => e.type === 'turn_finished' && e.turn === turn)) return all;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`turn ${turn} of ${conversation} did not finish: ${JSON.stringify(all)}`);
}

/** A scripted harness prompt. */
export const script = (...steps: Record<string, unknown>[]) => JSON.stringify({ script: steps });
