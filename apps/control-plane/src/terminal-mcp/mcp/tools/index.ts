import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolContext } from '../tool-kit';
import * as closeSession from './shellwatch_close_session';
import * as createSession from './shellwatch_create_session';
import * as listSessions from './shellwatch_list_sessions';
import * as manageEndpoints from './shellwatch_manage_endpoints';
import * as manageKeys from './shellwatch_manage_keys';
import * as readOutput from './shellwatch_read_output';
import * as sendKeys from './shellwatch_send_keys';

/** The spec's seven tools, one file each. */
const TOOLS = [
  createSession,
  listSessions,
  sendKeys,
  readOutput,
  closeSession,
  manageEndpoints,
  manageKeys,
];

export function registerTools(server: McpServer, ctx: ToolContext): void {
  for (const tool of TOOLS) tool.register(server, ctx);
}
