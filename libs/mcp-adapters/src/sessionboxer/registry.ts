import { ErrorCode } from '@sessionboxer/domain';
import type { z } from 'zod';
import { ToolCallError } from '../kit/call-error';
import { callParser } from '../kit/call-parser';
import type { InBoxTool, ToolDefinition } from '../kit/tool';
import { docsTool, type DocsPort } from './docs';
import { notifyTool } from './notify';
import { prAttachTool } from './pr_attach';
import { prItemsTool } from './pr_items';
import { prListTool } from './pr_list';
import { prMarkAddressedTool } from './pr_mark_addressed';
import { settingsGetTool } from './settings_get';
import { queueAddTool } from './queue_add';
import { queueListTool } from './queue_list';
import { snapshotTool } from './snapshot';
import { terminalListTool } from './terminal_list';
import { terminalReadTool } from './terminal_read';
import { titleSetTool } from './title_set';
import { uiOpenTool } from './ui_open';
import { verifyTool } from './verify';
import { whoamiTool } from './whoami';
import { approvalWaitTool } from './approval_wait';
import { scheduleCreateTool } from './schedule_create';
import { scheduleListTool } from './schedule_list';
import { sessionCreateTool } from './session_create';
import { sessionForkTool } from './session_fork';
import { sessionGetTool } from './session_get';
import { sessionMessageTool } from './session_message';
import { sessionStopTool } from './session_stop';
import { sessionWaitTool } from './session_wait';
import { sessionsListTool } from './sessions_list';

/** A tool answered on the control plane, by the handler its owning module registers. */
export type ControlPlaneTool = ToolDefinition<z.ZodRawShape> & { route: 'control-plane' };
/** A tool answered inside the box (only `docs`). */
/* eslint-disable-next-line @typescript-eslint/no-explicit-any -- a registry holds every shape */
export type BoxTool = InBoxTool<z.ZodRawShape, DocsPort, any>;
export type AnySessionboxerTool = ControlPlaneTool | BoxTool;

/** Every tool of the sessionboxer server, in the order of the spec. */
export const sessionboxerTools: readonly AnySessionboxerTool[] = [
  whoamiTool,
  docsTool,
  settingsGetTool,
  prAttachTool,
  prListTool,
  prItemsTool,
  prMarkAddressedTool,
  snapshotTool,
  queueAddTool,
  queueListTool,
  titleSetTool,
  verifyTool,
  notifyTool,
  terminalListTool,
  terminalReadTool,
  uiOpenTool,
  sessionsListTool,
  sessionGetTool,
  sessionCreateTool,
  sessionForkTool,
  sessionMessageTool,
  sessionWaitTool,
  sessionStopTool,
  approvalWaitTool,
  scheduleCreateTool,
  scheduleListTool,
];

export const controlPlaneTools = sessionboxerTools.filter(
  (t): t is ControlPlaneTool => t.route === 'control-plane',
);

const byName = new Map(sessionboxerTools.map((t) => [t.name, t]));
if (byName.size !== sessionboxerTools.length) {
  throw new Error('two sessionboxer tools share a name');
}
export function findSessionboxerTool(name: string): AnySessionboxerTool | undefined {
  return byName.get(name);
}

/**
 * Checks one call with the tool's own schema and cross-field rules (see callParser): the box
 * runs it before posting a call, the control plane's gateway on every frame.
 */
export const parseCall = callParser('sessionboxer tool', sessionboxerTools);

/**
 * What the gateway checks of a `sessionboxer` frame before its handler runs: the arguments
 * (parseCall), and that the tool is one the control plane answers.
 */
export function parseControlPlaneCall(toolName: string, args: unknown): Record<string, unknown> {
  const parsed = parseCall(toolName, args);
  if (byName.get(toolName)?.route !== 'control-plane') {
    const message = `${toolName} is answered inside the box, not by the control plane`;
    throw new ToolCallError(toolName, [{ field: 'tool', message }], ErrorCode.NotFound);
  }
  return parsed;
}
