import * as fs from 'node:fs';
import type { EventStore, RecordedEvent } from '@sessionboxer/event-store';
import { EVENT_STORE } from '../../src/infrastructure/tokens';
import { PLACEHOLDER_KEY } from '../../src/provider-relay';
import { waitForBox } from '../box-kit';
import { ModelProviderDouble } from '../doubles/model-provider/model-provider-double';
import { startApp, type RunningApp } from '../harness';
import { filesHolding, workspaceOf } from './box-secrets-kit';

/** Shaped like a real key, so that only keeping it out of the box can keep it out. */
export const realKey = (tag: string): string => `sk-ant-api03-${tag.repeat(12)}-real`;

/** The Bash command that lists the environment of every process in the box (as a tool input). */
export const LIST_BOX_ENVIRONS =
  'for f in /proc/[0-9]*/environ; do tr "\\000" "\\n" < "$f"; done | sort -u';

export interface RealAgentWorld {
  api: RunningApp;
  double: ModelProviderDouble;
  close(): Promise<void>;
}

/**
 * A control plane starting real boxes whose Anthropic relay forwards to a fresh model-provider
 * double, with `key` set as the Anthropic API key in its vault.
 */
export async function startRealAgentWorld(
  key: string,
  env: Record<string, string> = {},
): Promise<RealAgentWorld> {
  const double = await ModelProviderDouble.start();
  const api = await startApp(undefined, {
    SESSIONBOXER_BOXES: 'on',
    SESSIONBOXER_ANTHROPIC_BASE_URL: double.url,
    ...env,
  });
  await api.request('PUT', '/api/settings/credentials/anthropicApiKey', { value: key });
  return {
    api,
    double,
    async close() {
      await api.close();
      await double.close();
      fs.rmSync(api.dataDir, { recursive: true, force: true });
    },
  };
}

/** A new session of `provider` whose box is ready. */
export async function readySession(
  api: RunningApp,
  provider: string,
  title: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const created = await api.request('POST', '/api/sessions', { title, provider, ...extra });
  if (created.status !== 201) throw new Error(`session not created: ${JSON.stringify(created)}`);
  await waitForBox(api, created.body.id);
  return created.body.id as string;
}

/** A model request that carries a tool result back (the CLI's answer to a tool_use). */
export function carriesToolResult(body: Record<string, unknown> | null): boolean {
  const messages = (body?.messages ?? []) as { role: string; content: unknown }[];
  const last = messages[messages.length - 1];
  return Array.isArray(last?.content) && last.content.some((b: any) => b?.type === 'tool_result');
}

export async function allEvents(api: RunningApp): Promise<RecordedEvent[]> {
  return api.app.get<EventStore>(EVENT_STORE).readAll();
}

/**
 * The double saw the real key on every model request and never the placeholder; what the box's
 * processes held (`environs`, read while the CLI ran) was the placeholder and the edge's URL;
 * no workspace file and no event holds the key.
 */
export async function expectKeyOnlyAtTheDouble(
  world: RealAgentWorld,
  sessionId: string,
  key: string,
  environs: string,
): Promise<void> {
  const posts = world.double.requests.filter((r) => r.method === 'POST');
  expect(posts.length).toBeGreaterThanOrEqual(2);
  expect(new Set(posts.map((r) => r.headers['x-api-key']))).toEqual(new Set([key]));
  const headers = JSON.stringify(world.double.requests.map((r) => r.headers));
  expect(headers.includes(PLACEHOLDER_KEY)).toBe(false);
  expect(environs).toContain(`ANTHROPIC_API_KEY=${PLACEHOLDER_KEY}`);
  expect(environs).toContain('ANTHROPIC_BASE_URL=http://127.0.0.1:7001/provider/anthropic');
  expect(environs.includes(key)).toBe(false);
  expect(filesHolding(await workspaceOf(world.api, sessionId), key)).toEqual([]);
  expect(JSON.stringify(await allEvents(world.api)).includes(key)).toBe(false);
}
