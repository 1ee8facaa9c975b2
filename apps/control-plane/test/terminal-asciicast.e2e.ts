import * as fs from 'node:fs';
import { waitFor, waitForBox } from './box-kit';
import { startApp, type RunningApp } from './harness';
import { conversation, script, turnFinished } from './agent/agent-kit';

/**
 * A Terminal's output is kept in the history as it runs (batches of bytes from the box's real
 * PTY), so it exports as asciicast v2 whole and in order, shows in the timeline as byte
 * ranges (never the bytes), and is there after the box is gone.
 */
describe("a Terminal's output, recorded and exported as asciicast", () => {
  let api: RunningApp;
  let id: string;
  let terminalId: string;

  beforeAll(async () => {
    api = await startApp(undefined, { SESSIONBOXER_BOXES: 'on' });
    id = (await api.request('POST', '/api/sessions', { title: 'Cast', provider: 'scripted' })).body
      .id;
    await waitForBox(api, id);
    // Lines of a multi-byte text, a pause, then more: several batches, timed apart.
    const command =
      'for i in 1 2 3; do echo "ligne $i: héllo ✓"; done; sleep 0.4; echo fin; exit 3';
    await api.request('POST', `/api/sessions/${id}/prompts`, {
      text: script({
        call: 'sessionboxer.ui_open',
        args: { pane: 'terminal', terminal: { command } },
      }),
    });
    await turnFinished(api, id, 1);
    const [result] = (await conversation(api, id)).events.filter(
      (e: any) => e.type === 'tool_result',
    );
    terminalId = JSON.parse(result.output).terminalId;
    await waitFor('the Terminal to exit', async () => {
      const list = (await api.request('GET', `/api/sessions/${id}/terminals`)).body;
      return list.find((t: any) => t.id === terminalId && t.exitCode === 3);
    });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('exports the whole output as asciicast v2, in order and timed from the opening', async () => {
    const res = await fetch(`${api.url}/api/sessions/${id}/terminals/${terminalId}/asciicast`, {
      headers: api.authHeaders,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/x-asciicast');
    const [head, ...frames] = (await res.text())
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(head).toMatchObject({ version: 2, width: 120, height: 30 });
    expect(head.command).toContain('ligne $i');
    const text = frames.map((f) => f[2]).join('');
    for (const i of [1, 2, 3]) expect(text).toContain(`ligne ${i}: héllo ✓`);
    expect(text.indexOf('ligne 3')).toBeLessThan(text.indexOf('fin'));
    const times = frames.map((f) => f[0]);
    expect(frames.every((f) => f[1] === 'o')).toBe(true);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // "fin" came after the pause, in a later batch than the lines.
    const fin = frames.findIndex((f) => f[2].includes('fin'));
    expect(frames[fin][0]).toBeGreaterThan(frames[0][0]);
  });

  it('shows the output in the timeline as byte ranges that follow each other, not the bytes', async () => {
    const page = (await api.request('GET', `/api/sessions/${id}/timeline?kinds=terminal`)).body;
    const ranges = page.entries.filter((e: any) => e.terminalBytes);
    expect(ranges.length).toBeGreaterThan(0);
    let next = 0;
    for (const e of ranges) {
      expect(e.terminalBytes).toMatchObject({ terminalId, from: next });
      expect(JSON.stringify(e)).not.toContain('héllo');
      next = e.terminalBytes.to;
    }
    expect(page.entries.map((e: any) => e.type)).toContain('TerminalExited');
  });

  it('exports from the history once the box is gone, and 404s a Terminal the session lacks', async () => {
    expect((await api.request('POST', `/api/sessions/${id}/box/destroy`)).status).toBeLessThan(300);
    const after = await fetch(`${api.url}/api/sessions/${id}/terminals/${terminalId}/asciicast`, {
      headers: api.authHeaders,
    });
    expect(after.status).toBe(200);
    expect(await after.text()).toContain('fin');
    const missing = await api.request('GET', `/api/sessions/${id}/terminals/nope/asciicast`);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toMatch(/has no Terminal nope/);
  });
});
