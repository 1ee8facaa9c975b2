import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { BOX_PATHS } from '@sessionboxer/mcp-adapters/bridge/protocol';
import { prettyJson, writeFileAtomic } from './safe-write';

export interface McpJsonInput {
  nodePath: string;
  commandRoot: string;
  daemonUrl: string;
  /** The box's X display, which the desktop server drives. */
  display?: string;
  /** The rest of the desktop server's settings (SESSIONBOXER_SCREEN, _MOUSE_GLIDE…). */
  desktopEnv?: Record<string, string>;
  /** The user guide the sessionboxer server's `docs` tool reads, when not the box default. */
  guidePath?: string;
}

interface McpServerEntry {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** The servers Sessionboxer owns in `.mcp.json`, in the format Claude Code reads. */
export function sessionboxerMcpServers(input: McpJsonInput): Record<string, McpServerEntry> {
  const env = { SESSIONBOXER_DAEMON_URL: input.daemonUrl };
  return {
    desktop: {
      command: input.nodePath,
      args: [path.join(input.commandRoot, 'desktop-server.js')],
      env: {
        ...env,
        ...input.desktopEnv,
        ...(input.display ? { DISPLAY: input.display } : {}),
      },
    },
    sessionboxer: {
      command: input.nodePath,
      args: [path.join(input.commandRoot, 'sessionboxer-server.js')],
      env: input.guidePath ? { ...env, SESSIONBOXER_GUIDE_PATH: input.guidePath } : env,
    },
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Our two servers over whatever the file held: servers someone else added to the workspace's
 * .mcp.json survive a daemon restart; an unreadable file is replaced.
 */
export function mergeMcpJson(existing: unknown, ours: Record<string, McpServerEntry>): unknown {
  const base = isObject(existing) ? existing : {};
  const servers = isObject(base.mcpServers) ? base.mcpServers : {};
  return { ...base, mcpServers: { ...servers, ...ours } };
}

export async function writeMcpJson(workspace: string, input: McpJsonInput): Promise<string> {
  const rel = path.relative(BOX_PATHS.workspace, BOX_PATHS.mcpJson);
  let existing: unknown = undefined;
  try {
    const real = path.join(await fs.realpath(workspace), rel);
    if ((await fs.lstat(real)).isFile()) existing = JSON.parse(await fs.readFile(real, 'utf8'));
  } catch {
    // missing or not JSON: written fresh
  }
  const content = prettyJson(mergeMcpJson(existing, sessionboxerMcpServers(input)));
  return writeFileAtomic(workspace, rel, content);
}
