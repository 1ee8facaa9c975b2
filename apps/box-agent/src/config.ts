import { BOX_EDGE, BOX_PATHS } from '@sessionboxer/mcp-adapters/bridge/protocol';
import { DESKTOP_VIEW } from '@sessionboxer/mcp-adapters/bridge/desktop-view';
import { loadDesktopConfig, type DesktopConfig } from './desktop/desktop-config';

/** Everything the daemon reads from its environment, with the in-box defaults. */
export interface DaemonConfig {
  /** The box's own Unix socket to the control plane's gateway. */
  gatewaySocket: string;
  /** The box's edge socket, where every connection to 127.0.0.1:edgePort is piped. */
  edgeSocket: string;
  /** The control plane's desktop-view socket (DESKTOP_VIEW.socket): each live view connects to it. */
  desktopViewSocket: string;
  /** BOX_EDGE.port (the proxy and relays the box's HTTP_PROXY names); 0 picks a free port. */
  edgePort: number;
  /** HTTP path of the WebSocket upgrade on that socket (the control plane's BOX_GATEWAY_PATH). */
  gatewayPath: string;
  host: string;
  /** 0 picks a free port (tests); the ready line and .mcp.json carry the real one. */
  port: number;
  workspace: string;
  /** Folder holding the compiled stdio MCP servers that .mcp.json points at. */
  mcpCommandRoot: string;
  /** How long a call waits for a connection to the gateway before it fails as unreachable. */
  callWaitMs: number;
  /** How long the control plane has to answer a call once it was sent (the bridge's bound). */
  callTimeoutMs: number;
  /** Folders of the agent CLIs (claude, opencode), a PATH list added to the end of a harness's PATH. */
  agentBin: string;
  /** The node binary the MCP servers run with: the one running the daemon. */
  nodePath: string;
  /** Passed on to the sessionboxer MCP server (its `docs` tool) when set; else its default. */
  guidePath: string | undefined;
  /** The box's X display (SESSIONBOXER_DESKTOP, _DISPLAY, _SCREEN…) and how it is driven. */
  desktop: DesktopConfig;
}

export class ConfigError extends Error {}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number) {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(
      `${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`,
    );
  }
  return value;
}

function text(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const raw = env[name]?.trim();
  return raw ? raw : fallback;
}

function desktop(env: NodeJS.ProcessEnv): DesktopConfig {
  try {
    return loadDesktopConfig(env);
  } catch (e) {
    throw new ConfigError(e instanceof Error ? e.message : String(e));
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): DaemonConfig {
  const gatewaySocket = text(env, 'SESSIONBOXER_GATEWAY_SOCKET', BOX_PATHS.gatewaySocket);
  // ws addresses a Unix socket as `ws+unix://<socket>:<path>`, so the socket path cannot
  // hold a colon.
  if (gatewaySocket.includes(':')) {
    throw new ConfigError(`SESSIONBOXER_GATEWAY_SOCKET cannot contain ':', got ${gatewaySocket}`);
  }
  return {
    gatewaySocket,
    edgeSocket: text(env, 'SESSIONBOXER_EDGE_SOCKET', BOX_EDGE.socket),
    desktopViewSocket: text(env, 'SESSIONBOXER_DESKTOP_VIEW_SOCKET', DESKTOP_VIEW.socket),
    edgePort: integer(env, 'SESSIONBOXER_EDGE_PORT', BOX_EDGE.port, 0, 65535),
    gatewayPath: text(env, 'SESSIONBOXER_GATEWAY_PATH', '/box'),
    host: text(env, 'SESSIONBOXER_DAEMON_HOST', '127.0.0.1'),
    port: integer(env, 'SESSIONBOXER_DAEMON_PORT', 7000, 0, 65535),
    workspace: text(env, 'SESSIONBOXER_WORKSPACE', BOX_PATHS.workspace),
    mcpCommandRoot: text(
      env,
      'SESSIONBOXER_MCP_COMMAND_ROOT',
      '/opt/sessionboxer/dist/apps/box-agent/src/mcp',
    ),
    callWaitMs: integer(env, 'SESSIONBOXER_CALL_WAIT_MS', 15_000, 1, 600_000),
    callTimeoutMs: integer(env, 'SESSIONBOXER_CALL_TIMEOUT_MS', 20_000, 1, 600_000),
    agentBin: text(env, 'SESSIONBOXER_AGENT_BIN', '/opt/sessionboxer/node_modules/.bin'),
    nodePath: process.execPath,
    guidePath: env.SESSIONBOXER_GUIDE_PATH?.trim() || undefined,
    desktop: desktop(env),
  };
}
