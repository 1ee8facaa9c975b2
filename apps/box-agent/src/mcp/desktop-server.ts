/**
 * The desktop stdio MCP server of a box (compiled to dist/apps/box-agent/src/mcp/desktop-server.js,
 * listed in the workspace's .mcp.json with DISPLAY and SESSIONBOXER_SCREEN). stdout carries MCP
 * and nothing else: anything that logs goes to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { BOX_PATHS } from '@sessionboxer/mcp-adapters/bridge/protocol';
import { loadDesktopConfig } from '../desktop/desktop-config';
import { DesktopEngine } from '../desktop/engine';
import { createRecorder } from '../desktop/recording/recorder';
import { chooseTts } from '../desktop/recording/tts-choice';
import { DAEMON_VERSION } from '../version';
import { createDesktopServer, joinPorts } from './desktop-mcp';

// A stray console.log from any library would corrupt the protocol stream.
console.log = console.error;
console.info = console.error;
console.debug = console.error;

function setting(name: string, fallback: string): string {
  const value = process.env[name]?.trim();
  return value ? value : fallback;
}

/** Where a box keeps the running recording's state: its tmpfs, shared by every server process. */
const RECORDING_STATE_DIR = '/tmp/sessionboxer-recording';

async function main(): Promise<void> {
  const config = loadDesktopConfig();
  // DISPLAY is what .mcp.json sets; SESSIONBOXER_DISPLAY is the daemon's own setting.
  const display = setting('DISPLAY', config.display);
  const engine = new DesktopEngine({
    display,
    screen: config.screen,
    glide: config.glide,
    typeDelayMs: config.typeDelayMs,
  });
  const recording = createRecorder({
    display,
    screen: config.screen,
    workspace: setting('SESSIONBOXER_WORKSPACE', BOX_PATHS.workspace),
    stateDir: RECORDING_STATE_DIR,
    narration: config.narration,
    tts: chooseTts(config.tts),
    daemonUrl: setting('SESSIONBOXER_DAEMON_URL', BOX_PATHS.daemonUrl),
  });
  const server = createDesktopServer({
    port: joinPorts(engine, recording),
    screen: config.screen,
    version: DAEMON_VERSION,
  });
  // The SDK's stdio transport does not watch for the end of stdin, and the long-lived xdotool
  // would keep this process alive: when the agent goes, release any key a hold_key still
  // holds, then exit.
  process.stdin.once('end', () => void engine.close().finally(() => process.exit(0)));
  await server.connect(new StdioServerTransport());
}

main().catch((e: unknown) => {
  process.stderr.write(`desktop MCP server failed to start: ${String(e)}\n`);
  process.exit(1);
});
