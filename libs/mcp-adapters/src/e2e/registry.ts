import { ErrorCode } from '@sessionboxer/domain';
import { z } from 'zod';
import { argIssues, ToolCallError } from '../sessionboxer/call-error';
import type { SessionboxerTool } from '../sessionboxer/sessionboxer-tool';
import { e2eCaseEndTool } from './e2e_case_end';
import { e2eCaseStartTool } from './e2e_case_start';
import { e2eFinishTool } from './e2e_finish';
import { e2ePlanTool } from './e2e_plan';
import type { E2ePort } from './port';

/* eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of every shape */
export type E2eTool = SessionboxerTool<z.ZodRawShape, E2ePort, any> & { route: 'e2e' };

/**
 * The Auto QA tools, in the order of the spec. The box's sessionboxer MCP server lists them
 * beside its own and posts them to the daemon's /e2e, which the control plane answers apart
 * from the general bridge.
 */
export const e2eTools: readonly E2eTool[] = [
  e2ePlanTool,
  e2eCaseStartTool,
  e2eCaseEndTool,
  e2eFinishTool,
];

const byName = new Map(e2eTools.map((t) => [t.name, t]));
// Strict: a frame may carry only what the tool takes (the MCP SDK strips unknown keys earlier).
const schemas = new Map(e2eTools.map((t) => [t.name, z.object(t.input).strict()]));

export function findE2eTool(name: string): E2eTool | undefined {
  return byName.get(name);
}

/**
 * Checks one Auto QA call with the tool's own schema and cross-field rules, like the
 * sessionboxer registry's parseCall: the box runs it before posting, the control plane again.
 */
export function parseE2eCall(toolName: string, args: unknown): Record<string, unknown> {
  const tool = byName.get(toolName);
  const schema = schemas.get(toolName);
  if (tool === undefined || schema === undefined) {
    const names = e2eTools.map((t) => t.name).join(', ');
    const message = `there is no Auto QA tool ${JSON.stringify(toolName)} (the tools are ${names})`;
    throw new ToolCallError(toolName, [{ field: 'tool', message }], ErrorCode.NotFound);
  }
  const parsed = schema.safeParse(args ?? {});
  if (!parsed.success) {
    throw new ToolCallError(toolName, argIssues(parsed.error.issues, Object.keys(tool.input)));
  }
  const issues = tool.check?.(parsed.data) ?? [];
  if (issues.length) throw new ToolCallError(toolName, issues);
  return parsed.data;
}

/** What the gateway does with an `e2e` frame: parse it, run it against the session's port. */
export async function handleE2eCall(
  port: E2ePort,
  toolName: string,
  args: unknown,
): Promise<unknown> {
  const parsed = parseE2eCall(toolName, args);
  return (byName.get(toolName) as E2eTool).handle(port, parsed);
}
