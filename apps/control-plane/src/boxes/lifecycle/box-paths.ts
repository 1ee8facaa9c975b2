import * as fs from 'node:fs';
import * as path from 'node:path';
import { BOX_EDGE, BOX_PATHS } from '@sessionboxer/mcp-adapters';
import { DESKTOP_VIEW } from '@sessionboxer/mcp-adapters/bridge/desktop-view';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// sun_path holds 108 bytes; keep room for the terminating NUL.
const MAX_SOCKET_PATH = 100;

/** Where a box's files live on the host, all inside the data folder. */
export interface BoxPaths {
  root: string;
  workspace: string;
  runDir: string;
  socket: string;
  mcpJson: string;
}

export function boxPaths(dataDir: string, sessionId: string): BoxPaths {
  if (!UUID.test(sessionId))
    throw new Error(`a box needs a UUID session id, got ${JSON.stringify(sessionId)}`);
  const root = path.join(dataDir, 'boxes', sessionId.toLowerCase());
  const runDir = path.join(root, 'run');
  const socket = path.join(runDir, 'gateway.sock');
  if (Buffer.byteLength(socket) > MAX_SOCKET_PATH) {
    throw new Error(
      `the box socket path ${socket} is longer than ${MAX_SOCKET_PATH} bytes: use a shorter SESSIONBOXER_DATA_DIR`,
    );
  }
  const workspace = path.join(root, 'workspace');
  return { root, workspace, runDir, socket, mcpJson: path.join(workspace, '.mcp.json') };
}

/** The repository (or installed package) root: holds dist/ and node_modules/, mounted at /opt/sessionboxer. */
export function projectRoot(from = __dirname): string {
  for (let dir = from; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const pkg = path.join(dir, 'package.json');
    if (
      fs.existsSync(pkg) &&
      (JSON.parse(fs.readFileSync(pkg, 'utf8')) as { name?: string }).name === 'sessionboxer'
    ) {
      return dir;
    }
  }
  throw new Error(`no sessionboxer package.json above ${from}`);
}

/** The daemon's argv and environment, as seen from inside the box (or the host, unisolated). */
export function daemonLaunch(
  isolation: 'bubblewrap' | 'process',
  paths: BoxPaths,
  root: string,
): { command: string[]; env: Record<string, string> } {
  const inBox = isolation === 'bubblewrap';
  const base = inBox ? '/opt/sessionboxer' : root;
  const main = path.join(base, 'dist/apps/box-agent/src/main.js');
  if (!fs.existsSync(path.join(root, 'dist/apps/box-agent/src/main.js'))) {
    throw new Error(`the box daemon is not built (${main} is missing): run npm run build`);
  }
  return {
    command: [process.execPath, main],
    env: {
      SESSIONBOXER_GATEWAY_SOCKET: inBox ? BOX_PATHS.gatewaySocket : paths.socket,
      SESSIONBOXER_EDGE_SOCKET: inBox
        ? BOX_EDGE.socket
        : path.join(paths.runDir, path.basename(BOX_EDGE.socket)),
      SESSIONBOXER_DESKTOP_VIEW_SOCKET: inBox
        ? DESKTOP_VIEW.socket
        : path.join(paths.runDir, path.basename(DESKTOP_VIEW.socket)),
      SESSIONBOXER_EDGE_PORT: inBox ? String(BOX_EDGE.port) : '0',
      SESSIONBOXER_WORKSPACE: inBox ? BOX_PATHS.workspace : paths.workspace,
      // Unisolated boxes share the host's network: each daemon takes a free port.
      SESSIONBOXER_DAEMON_PORT: inBox ? '7000' : '0',
      SESSIONBOXER_MCP_COMMAND_ROOT: path.join(base, 'dist/apps/box-agent/src/mcp'),
      SESSIONBOXER_AGENT_BIN: agentBinPath(base),
      SESSIONBOXER_GUIDE_PATH: inBox ? BOX_PATHS.guide : path.join(root, 'docs/GUIDE.md'),
    },
  };
}

/**
 * Where the agent CLIs the project installs are, as a PATH list: Claude Code's `claude` in
 * node_modules/.bin; OpenCode's binary in its platform package (the project depends on
 * `opencode-linux-x64` itself: the `opencode-ai` wrapper needs every platform's package in the
 * lock file, and the registry here serves only the Linux x64 ones).
 */
function agentBinPath(base: string): string {
  const opencode = `node_modules/opencode-${process.platform}-${process.arch}/bin`;
  return [path.join(base, 'node_modules/.bin'), path.join(base, opencode)].join(':');
}
