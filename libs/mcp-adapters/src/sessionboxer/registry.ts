import { ErrorCode } from '@sessionboxer/domain';
import { z } from 'zod';
import { ToolCallError } from '../kit/call-error';
import { callParser } from '../kit/call-parser';
import { docsTool, type DocsPort } from './docs';
import { notifyTool } from './notify';
import type { SessionboxerPort } from './port';
import { prAttachTool } from './pr_attach';
import { prItemsTool } from './pr_items';
import { prListTool } from './pr_list';
import { prMarkAddressedTool } from './pr_mark_addressed';
import type { SessionboxerTool } from '../kit/define-tool';
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

/* eslint-disable @typescript-eslint/no-explicit-any -- a registry holds tools of every shape */
/** A tool answered on the control plane, with a port bound to the calling session. */
export type ControlPlaneTool = SessionboxerTool<z.ZodRawShape, SessionboxerPort, any> & {
  route: 'control-plane';
};
/** A tool answered inside the box (only `docs`). */
export type BoxTool = SessionboxerTool<z.ZodRawShape, DocsPort, any> & { route: 'box' };
/* eslint-enable @typescript-eslint/no-explicit-any */
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
 * What the gateway does with a `sessionboxer` frame: parse it, refuse a tool that is not
 * answered on the control plane, and run the tool against the calling session's port.
 */
export async function handleControlPlaneCall(
  port: SessionboxerPort,
  toolName: string,
  args: unknown,
): Promise<unknown> {
  const parsed = parseCall(toolName, args);
  const tool = byName.get(toolName);
  if (tool?.route !== 'control-plane') {
    const message = `${toolName} is answered inside the box, not by the control plane`;
    throw new ToolCallError(toolName, [{ field: 'tool', message }], ErrorCode.NotFound);
  }
  return tool.handle(port, parsed);
}
