import { readFile } from 'node:fs/promises';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { strictInput } from '@sessionboxer/mcp-adapters';
import { e2eTools, parseE2eCall, type E2eTool } from '@sessionboxer/mcp-adapters/e2e';
import { isToolCallError } from '@sessionboxer/mcp-adapters/kit';
import {
  parseCall,
  sessionboxerTools,
  type AnySessionboxerTool,
  type DocsPort,
} from '@sessionboxer/mcp-adapters/sessionboxer';
import { postToDaemon, reason, type DaemonClientOptions } from './daemon-client';
import { answerResult, errorResult, jsonResult } from './tool-result';

export interface SessionboxerServerOptions {
  /** The box's daemon (`SESSIONBOXER_DAEMON_URL`, else http://127.0.0.1:7000). */
  daemonUrl: string;
  /** The user guide `docs` searches (`SESSIONBOXER_GUIDE_PATH`, else BOX_PATHS.guide). */
  guidePath: string;
  version: string;
  daemonTimeoutMs?: number;
}

/** `docs` is answered here, in the box, from the guide file; nothing leaves the box. */
async function answerInBox(
  tool: AnySessionboxerTool & { route: 'box' },
  args: Record<string, unknown>,
  guidePath: string,
): Promise<CallToolResult> {
  let guide: string;
  try {
    guide = await readFile(guidePath, 'utf8');
  } catch (e) {
    return errorResult(`the Sessionboxer user guide at ${guidePath} cannot be read: ${reason(e)}`);
  }
  const port: DocsPort = { readGuide: () => Promise.resolve(guide) };
  return jsonResult(await tool.handle(port, args));
}

/** A tool this server lists. The Auto QA tools go to the daemon's /e2e, the others to /sessionboxer. */
type ServedTool = AnySessionboxerTool | E2eTool;

/** Every tool of the server, in the spec's order: the sessionboxer tools, then Auto QA's. */
export const servedTools: readonly ServedTool[] = [...sessionboxerTools, ...e2eTools];

/**
 * One call: checked again with its registry's parser (the SDK checked the shape; this adds the
 * rules across fields and names the tool), then answered in the box or posted to the daemon.
 */
async function answer(
  tool: ServedTool,
  raw: unknown,
  options: SessionboxerServerOptions,
): Promise<CallToolResult> {
  let args: Record<string, unknown>;
  try {
    args = tool.route === 'e2e' ? parseE2eCall(tool.name, raw) : parseCall(tool.name, raw);
  } catch (e) {
    if (isToolCallError(e)) return errorResult(e.message);
    throw e;
  }
  if (tool.route === 'box') return answerInBox(tool, args, options.guidePath);
  const daemon: DaemonClientOptions = {
    baseUrl: options.daemonUrl,
    endpoint: tool.route === 'e2e' ? 'e2e' : 'sessionboxer',
    timeoutMs: options.daemonTimeoutMs,
  };
  return answerResult(await postToDaemon(daemon, tool.name, args));
}

/** The sessionboxer MCP server of a box: every tool it serves, registered in one loop. */
export function createSessionboxerServer(options: SessionboxerServerOptions): McpServer {
  const server = new McpServer({ name: 'sessionboxer', version: options.version });
  for (const tool of servedTools) {
    const config = {
      title: tool.title,
      description: tool.description,
      // Strict, as the desktop server's: an unknown argument is refused by name, not dropped.
      inputSchema: strictInput(tool.input),
      annotations: { title: tool.title, ...tool.annotations },
    };
    server.registerTool(tool.name, config, (args: unknown) => answer(tool, args, options));
  }
  return server;
}
