import * as fs from 'node:fs';
import type { EventStore } from '@sessionboxer/event-store';
import { EVENT_STORE } from '../../src/infrastructure/tokens';
import { waitForBox } from '../box-kit';
import { ModelProviderDouble, say, use } from '../doubles/model-provider/model-provider-double';
import { startApp, type RunningApp } from '../harness';
import { conversation, shape, transcript, turnFinished } from './agent-kit';
import { boxEnvirons, filesHolding, workspaceOf } from './box-secrets-kit';

const PLACEHOLDER = 'sessionboxer-placeholder';

/**
 * The real Claude Code (the project's node_modules/.bin/claude, seen read-only in the box) runs
 * a turn in a real bubblewrap box against the model-provider double, reached only through the
 * box's edge and the control plane's Anthropic relay, which adds the real key.
 */
describe('a turn of the real Claude Code in a box', () => {
  const SECRET = `sk-ant-api03-${'Cc7'.repeat(12)}-real`;
  let double: ModelProviderDouble;
  let api: RunningApp;
  let id: string;

  beforeAll(async () => {
    double = await ModelProviderDouble.start();
    api = await startApp(undefined, {
      SESSIONBOXER_BOXES: 'on',
      SESSIONBOXER_ANTHROPIC_BASE_URL: double.url,
    });
    await api.request('PUT', '/api/settings/credentials/anthropicApiKey', { value: SECRET });
    const created = await api.request('POST', '/api/sessions', {
      title: 'Claude Code at work',
      provider: 'claude-code',
    });
    expect(created.status).toBe(201);
    id = created.body.id;
    await waitForBox(api, id);
  });
  afterAll(async () => {
    await api?.close();
    await double?.close();
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('calls mcp__sessionboxer__title_set and answers; the key reaches the double only', async () => {
    let environs = '';
    double.play([
      [
        say('Reading what my box holds, then naming the session.'),
        use('Bash', {
          command: 'for f in /proc/[0-9]*/environ; do tr "\\000" "\\n" < "$f"; done | sort -u',
          description: 'List the environment of every process in the box',
        }),
      ],
      [use('mcp__sessionboxer__title_set', { title: 'Named by Claude Code' })],
      [say('Done: the session is named.')],
    ]);
    const sent = await api.request('POST', `/api/sessions/${id}/prompts`, {
      text: 'Name this session',
    });
    expect(sent.status).toBe(202);
    // While the turn runs (the CLI waits for the title_set step): what the box's processes hold.
    const second = await double.next((r) => r.kind === 'main' && hasToolResult(r.body));
    environs = await boxEnvirons(api, id);
    expect(second).toBeDefined();

    const finished = await turnFinished(api, id, 1, 90_000);
    expect(finished.status).toBe('finished');
    const { events } = await conversation(api, id);
    const calls = events.filter((e: any) => e.type === 'tool_call');
    expect(calls.map((c: any) => c.name)).toEqual(['Bash', 'mcp__sessionboxer__title_set']);
    const results = events.filter((e: any) => e.type === 'tool_result');
    expect(results.map((r: any) => r.error)).toEqual([false, false]);
    expect(JSON.parse(results[1].output)).toMatchObject({ title: 'Named by Claude Code' });
    expect(events.filter((e: any) => e.type === 'message').map((m: any) => m.text)).toEqual([
      'Reading what my box holds, then naming the session.',
      'Done: the session is named.',
    ]);

    const session = (await api.request('GET', `/api/sessions/${id}`)).body;
    expect(session.title).toBe('Named by Claude Code');
    const all = await api.app.get<EventStore>(EVENT_STORE).readAll();
    const titled = all.filter((e) => e.type === 'SessionTitleSet');
    expect(titled.map((e) => e.data)).toEqual([
      expect.objectContaining({ sessionId: id, title: 'Named by Claude Code' }),
    ]);
    const entries = shape(await transcript(api, id));
    expect(entries).toContain('marker:session-renamed');
    expect(entries.indexOf('marker:session-renamed')).toBeLessThan(
      entries.lastIndexOf('tool_result#1'),
    );

    // The double saw the real key on every model request, and never the placeholder.
    const posts = double.requests.filter((r) => r.method === 'POST');
    expect(posts.length).toBeGreaterThanOrEqual(3);
    expect(new Set(posts.map((r) => r.headers['x-api-key']))).toEqual(new Set([SECRET]));
    const headers = JSON.stringify(double.requests.map((r) => r.headers));
    expect(headers.includes(PLACEHOLDER)).toBe(false);
    // The CLI's own environment (its Bash tool listed it) held the placeholder and the edge.
    expect(results[0].output).toContain(`ANTHROPIC_API_KEY=${PLACEHOLDER}`);
    expect(results[0].output).toContain(
      'ANTHROPIC_BASE_URL=http://127.0.0.1:7001/provider/anthropic',
    );
    // Nothing in the box held the key: no process's environment, no workspace file.
    expect(environs).toContain(PLACEHOLDER);
    expect(environs).not.toContain(SECRET);
    expect(results[0].output).not.toContain(SECRET);
    expect(filesHolding(await workspaceOf(api, id), SECRET)).toEqual([]);
    expect(JSON.stringify(all)).not.toContain(SECRET);
  });
});

function hasToolResult(body: Record<string, unknown> | null): boolean {
  const messages = (body?.messages ?? []) as { role: string; content: unknown }[];
  const last = messages[messages.length - 1];
  return Array.isArray(last?.content) && last.content.some((b: any) => b?.type === 'tool_result');
}
