import type { z } from 'zod';
import { callParser } from '../kit/call-parser';
import type { ToolDefinition } from '../kit/tool';
import { e2eCaseEndTool } from './e2e_case_end';
import { e2eCaseStartTool } from './e2e_case_start';
import { e2eFinishTool } from './e2e_finish';
import { e2ePlanTool } from './e2e_plan';

/** An Auto QA tool, answered on the control plane by the handler Auto QA registers. */
export type E2eTool = ToolDefinition<z.ZodRawShape> & { route: 'e2e' };

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

export function findE2eTool(name: string): E2eTool | undefined {
  return byName.get(name);
}

/** Checks one Auto QA call, as parseCall does a sessionboxer one (see callParser). */
export const parseE2eCall = callParser('Auto QA tool', e2eTools);
