import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Log } from '../../log';
import { makeBoxDir, startDaemonProcess, waitUntil } from '../../test/daemon-process';
import { VirtualDisplay } from '../display';
import { imageOf, REPO_ROOT } from './desktop-client';
import { freeDisplayNumber } from './x-server';

/** The box's display as the daemon runs it: a real Xvfb, started, watched, restarted, stopped. */

function xdpyinfo(display: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('xdpyinfo', ['-display', display], { timeout: 5_000 }, (e, out) =>
      resolve(e ? null : out),
    );
  });
}

function alive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const lines: string[] = [];
const log: Log = {
  info: (m) => lines.push(`info ${m}`),
  warn: (m) => lines.push(`warn ${m}`),
  error: (m) => lines.push(`error ${m}`),
};

describe('VirtualDisplay', () => {
  let display: VirtualDisplay | undefined;
  afterEach(async () => {
    await display?.stop();
    lines.length = 0;
  });

  it('starts Xvfb at the configured size, restarts it when it dies, and kills it on stop', async () => {
    const name = `:${freeDisplayNumber()}`;
    display = new VirtualDisplay({ display: name, screen: { width: 800, height: 600 }, log });
    display.start();
    await display.ready();
    expect(await xdpyinfo(name)).toMatch(/dimensions:\s+800x600 pixels/);
    const first = display.pid;

    process.kill(first!, 'SIGKILL');
    await waitUntil(() => display?.pid !== undefined && display.pid !== first, 10_000);
    await display.ready();
    expect(await xdpyinfo(name)).not.toBeNull();
    expect(
      lines.some((l) => /^warn Xvfb .* exited \(SIGKILL\); restarting in \d+ ms$/.test(l)),
    ).toBe(true);

    const second = display.pid;
    await display.stop();
    expect(alive(second)).toBe(false);
    await new Promise((r) => setTimeout(r, 400)); // longer than the first restart delay
    expect(display.pid).toBeUndefined();
    expect(await xdpyinfo(name)).toBeNull();
  });

  it('says so when Xvfb is missing, and does not retry', async () => {
    display = new VirtualDisplay({
      display: `:${freeDisplayNumber()}`,
      screen: { width: 1024, height: 768 },
      log,
      xvfb: '/nonexistent/Xvfb',
    });
    display.start();
    await waitUntil(() => lines.length > 0);
    expect(lines).toEqual([
      expect.stringMatching(/^error cannot start Xvfb: spawn \/nonexistent\/Xvfb ENOENT/),
    ]);
    await new Promise((r) => setTimeout(r, 400));
    expect(lines).toHaveLength(1);
  });
});

describe('the daemon with its desktop on', () => {
  const box = makeBoxDir();
  afterAll(() => box.remove());

  /** Starts the desktop entry of .mcp.json exactly as it stands, as Claude Code would. */
  async function screenshotThrough(entry: { command: string; args: string[]; env: object }) {
    const transport = new StdioClientTransport({
      ...entry,
      env: entry.env as Record<string, string>,
    });
    const client = new Client({ name: 'agent', version: '1' });
    await client.connect(transport);
    try {
      return (await client.callTool({ name: 'screenshot', arguments: {} })) as CallToolResult;
    } finally {
      await client.close();
    }
  }

  it('prints ready without waiting for the display, lists it in .mcp.json and kills it on exit', async () => {
    const number = freeDisplayNumber();
    const daemon = await startDaemonProcess(box, {
      // The compiled servers, as a box has them (jest's global setup builds dist/ when stale).
      SESSIONBOXER_MCP_COMMAND_ROOT: path.join(REPO_ROOT, 'dist/apps/box-agent/src/mcp'),
      SESSIONBOXER_DESKTOP: 'on',
      SESSIONBOXER_DISPLAY: `:${number}`,
      SESSIONBOXER_SCREEN: '800x600',
      SESSIONBOXER_GUEST_OS: 'windows',
    });
    try {
      const mcpJson = path.join(box.workspace, '.mcp.json');
      await waitUntil(() => fs.existsSync(mcpJson));
      const desktop = JSON.parse(fs.readFileSync(mcpJson, 'utf8')).mcpServers.desktop;
      expect(desktop.env).toEqual({
        SESSIONBOXER_DAEMON_URL: daemon.url,
        DISPLAY: `:${number}`,
        SESSIONBOXER_SCREEN: '800x600',
        SESSIONBOXER_MOUSE_GLIDE: '1',
        SESSIONBOXER_GUEST_OS: 'windows',
        SESSIONBOXER_TYPE_DELAY_MS: '40',
        SESSIONBOXER_NARRATION: 'ask',
        SESSIONBOXER_NARRATION_ASK_SECONDS: '5',
      });
      await waitUntil(() => /display :\d+ ready \(800x600\)/.test(daemon.stderr()), 10_000);
      expect(await xdpyinfo(`:${number}`)).toMatch(/dimensions:\s+800x600 pixels/);
      const shot = imageOf(await screenshotThrough(desktop));
      expect([shot.width, shot.height]).toEqual([800, 600]);
    } finally {
      expect(await daemon.stop()).toBe(0);
    }
    expect(await xdpyinfo(`:${number}`)).toBeNull();
    expect(fs.existsSync(`/tmp/.X${number}-lock`)).toBe(false);
  });
});
