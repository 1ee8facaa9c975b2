import { parseControlPlaneCall, parseE2eCall } from '@sessionboxer/mcp-adapters';
import { callContext } from '../src/calls/call-context';
import { CallHandlers } from '../src/calls/call-handlers';
import type { RunningApp } from './harness';

/**
 * A tool call as the gateway runs it once the policy let it through: the tool's parser, then
 * the handler its module registered, for `sessionId`'s agent with this `callId` (no box needed).
 */
export async function runTool(
  api: RunningApp,
  sessionId: string,
  callId: string,
  tool: string,
  args: object = {},
): Promise<any> {
  const handlers = api.app.get(CallHandlers);
  const ctx = callContext(sessionId, callId, () =>
    Promise.resolve({ agentTools: 'all', source: 'global' }),
  );
  if (tool.startsWith('e2e_')) return handlers.e2e.run(tool, parseE2eCall(tool, args), ctx);
  return handlers.sessionboxer.run(tool, parseControlPlaneCall(tool, args), ctx);
}
