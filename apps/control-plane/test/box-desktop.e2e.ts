import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { LocalBoxDriver } from '../src/boxes/driver';
import { BOX_DRIVER } from '../src/infrastructure/tokens';
import { call, callError, mcpClientInBox, waitFor, waitForBox } from './box-kit';
import { startApp, type RunningApp } from './harness';

/** The PNG's width and height from its IHDR chunk. */
function pngSize(base64: string): { width: number; height: number } {
  const png = Buffer.from(base64, 'base64');
  expect(png.subarray(1, 4).toString()).toBe('PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe("the desktop MCP server inside a real box, driving the box's own display", () => {
  let api: RunningApp;
  let id: string;
  let workspace: string;
  let desktop: Client;
  let xev: ChildProcess | null = null;
  let events = '';
  let narrationEnv: string | undefined;

  beforeAll(async () => {
    api = await startApp(undefined, { SESSIONBOXER_BOXES: 'on' });
    // The narration setting travels from Settings into the box's .mcp.json.
    await api.request('PATCH', '/api/settings', { desktop: { narration: 'never' } });
    id = (await api.request('POST', '/api/sessions', { title: 'Desktop' })).body.id;
    workspace = (await waitForBox(api, id)).box.workspacePath;
    const mcp = JSON.parse(fs.readFileSync(path.join(workspace, '.mcp.json'), 'utf8'));
    const display: string = mcp.mcpServers.desktop.env.DISPLAY;
    narrationEnv = mcp.mcpServers.desktop.env.SESSIONBOXER_NARRATION;
    desktop = await mcpClientInBox(api, id, 'desktop');
    await waitFor('the box display', async () => {
      try {
        const r = await desktop.callTool({ name: 'cursor_position', arguments: {} });
        return r.isError !== true;
      } catch {
        return false;
      }
    });
    // A real window on the box's display. xev prints every event its window receives, so
    // the test sees exactly which clicks and keys reached it. (xterm cannot run in a box:
    // it chowns its pty to the tty group, which the box's user namespace does not map.)
    const driver = api.app.get<LocalBoxDriver>(BOX_DRIVER);
    xev = driver.exec(
      id,
      ['/usr/bin/xev', '-geometry', '600x400+0+0', '-event', 'keyboard', '-event', 'button'],
      { env: { DISPLAY: display } },
    );
    xev.stdout?.on('data', (d: Buffer) => (events += d.toString()));
    await waitFor('the xev window', () => events.length > 0 || null, 5000).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 500));
  });
  afterAll(async () => {
    xev?.kill('SIGKILL');
    await desktop?.close();
    await api?.close();
    fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('takes a screenshot of the screen size, and refuses coordinates off the screen', async () => {
    const shot = (await desktop.callTool({ name: 'screenshot', arguments: {} })) as {
      content: { type: string; data: string }[];
    };
    expect(shot.content[0].type).toBe('image');
    expect(pngSize(shot.content[0].data)).toEqual({ width: 1024, height: 768 });
    expect(await callError(desktop, 'left_click', { coordinate: [5000, 10] })).toMatch(
      /coordinate/,
    );
  });

  it('clicks into the window and types; the window in the box receives exactly that', async () => {
    expect(
      (await desktop.callTool({ name: 'left_click', arguments: { coordinate: [200, 100] } }))
        .isError,
    ).toBeFalsy();
    await waitFor('the click', () => /ButtonPress event[\s\S]*button 1/.test(events));
    expect(events).toMatch(/ButtonPress event[\s\S]*?\(200,100\)/);
    await desktop.callTool({ name: 'type', arguments: { text: 'hi;$(x)' } });
    await desktop.callTool({ name: 'key', arguments: { text: 'ctrl+a Return' } });
    const typed = await waitFor('the keys', () => {
      const keys = [...events.matchAll(/KeyPress event[\s\S]*?keysym 0x[0-9a-f]+, (\w+)\)/g)].map(
        (m) => m[1],
      );
      return keys.includes('Return') && keys;
    });
    // Shift presses come with $ ( ) on a US layout; the rest is exactly what was sent.
    expect(typed.filter((k) => k !== 'Shift_L')).toEqual([
      'h',
      'i',
      'semicolon',
      'dollar',
      'parenleft',
      'x',
      'parenright',
      'Control_L',
      'a',
      'Return',
    ]);
  });

  it('records the screen with captions; the finished video becomes part of the session history', async () => {
    const started = await call(desktop, 'start_recording');
    expect(started).toMatchObject({ seconds: 0, captions: 0 });
    await call(desktop, 'annotate_recording', { text: 'Typing a command' });
    await desktop.callTool({ name: 'type', arguments: { text: 'echo recorded' } });
    await new Promise((r) => setTimeout(r, 800));
    await call(desktop, 'annotate_recording', { text: 'The command ran' });
    await desktop.callTool({ name: 'key', arguments: { text: 'Return' } });
    await new Promise((r) => setTimeout(r, 800));
    expect(narrationEnv).toBe('never');
    const stopped = await call(desktop, 'stop_recording');
    expect(stopped.narration).toEqual({ skipped: expect.stringMatching(/never/i) });
    expect(stopped.path).toMatch(/^\/workspace\/.*\.mp4$/);
    expect(stopped.captions).toHaveLength(2);
    expect(fs.existsSync(path.join(workspace, stopped.path.slice('/workspace/'.length)))).toBe(
      true,
    );
    const recordings = await waitFor('the recording event', async () => {
      const list = (await api.request('GET', `/api/sessions/${id}/recordings`)).body;
      return list.length > 0 && list;
    });
    expect(recordings[0]).toMatchObject({ path: stopped.path, captions: stopped.captions });
  });
});
