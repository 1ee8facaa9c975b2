import { z } from 'zod';
import {
  TERMINAL_INPUT_MAX,
  TERMINAL_SIZE,
  type CallResult,
  type ServerPushes,
  type ServerRequests,
} from '@sessionboxer/mcp-adapters/bridge/protocol';

/**
 * Validation of everything the control plane sends, so that a malformed frame is logged and
 * dropped instead of crashing the daemon. Each schema is tied to the contract's type.
 */

export const envelope = z.object({ event: z.string().min(1).max(100), data: z.unknown() });

export const callResult: z.ZodType<CallResult> = z.union([
  z.object({ callId: z.string(), ok: z.literal(true), result: z.unknown() }),
  z.object({
    callId: z.string(),
    ok: z.literal(false),
    error: z.object({ code: z.string(), message: z.string() }),
  }),
]) as z.ZodType<CallResult>;

export const sessionPush: z.ZodType<ServerPushes['session']> = z.record(z.unknown());

export const terminalId = z.string().min(1).max(100);

export const terminalOpenPush: z.ZodType<ServerPushes['terminal.open']> = z.object({
  terminalId,
  command: z.array(z.string().max(10_000)).min(1).max(1_000).nullable(),
});

export const terminalInputPush: z.ZodType<ServerPushes['terminal.input']> = z.object({
  terminalId,
  data: z.string().min(1).max(TERMINAL_INPUT_MAX),
});

export const terminalResizePush: z.ZodType<ServerPushes['terminal.resize']> = z.object({
  terminalId,
  cols: z.number().int().min(TERMINAL_SIZE.cols.min).max(TERMINAL_SIZE.cols.max),
  rows: z.number().int().min(TERMINAL_SIZE.rows.min).max(TERMINAL_SIZE.rows.max),
});

/** Requests carry a `requestId` the answer echoes (not in protocol.ts yet; see the report). */
export const requestId = z.object({ requestId: z.string().min(1).max(100) });

export const terminalReadRequest: z.ZodType<
  ServerRequests['terminal.read'] & { requestId: string },
  z.ZodTypeDef,
  unknown
> = requestId.extend({
  terminalId,
  lines: z.number().int().min(1).max(100_000).default(200),
});

export const terminalListRequest = requestId;

/** The answer to a request of the control plane's (`terminal.answer`, whatever asked). */
export type TerminalAnswer =
  | { requestId: string; ok: true; result: unknown }
  | { requestId: string; ok: false; error: { code: string; message: string } };

/** "path: problem; path: problem", for logs and 400 bodies. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((i) => `${i.path.length ? i.path.join('.') : 'body'}: ${i.message}`)
    .join('; ');
}
