import type { Logger } from '@nestjs/common';
import { ErrorCode } from '@sessionboxer/domain';
import type { FrameError } from '@sessionboxer/mcp-adapters';
import type { z } from 'zod';
import { toErrorAnswer } from '../errors/error-answer';
import { describe } from './zod-text';

/**
 * What a box's daemon may send, each the name of one BoxGateway handler (any other event is
 * refused by the socket adapter). A frame is taken only as far as the daemon's own state allows
 * (a Terminal it was asked to open, output of the turn it runs, the answer to a request that
 * waits); anything else is refused with a reason.
 */
export const DAEMON_FRAMES = {
  call: 'call',
  hello: 'hello',
  agentOutput: 'agent.output',
  terminalOpened: 'terminal.opened',
  terminalExited: 'terminal.exited',
  terminalOutput: 'terminal.output',
  terminalAnswer: 'terminal.answer',
} as const;

/**
 * The answer to a frame that was not taken; nothing of it was recorded. The same `error` frame
 * the socket adapter answers a frame it cannot read or route with (errors/socket-frame.ts).
 */
export interface Refusal {
  event: 'error';
  data: FrameError;
}

export function refused(
  frame: string,
  code: ErrorCode,
  message: string,
  ref: Record<string, unknown> = {},
): Refusal {
  return { event: 'error', data: { code, message, frame, ref } };
}

/** A frame whose data does not fit its schema: every wrong field and why. */
export function invalid(frame: string, error: z.ZodError, ref = {}): Refusal {
  return refused(frame, ErrorCode.ValidationFailed, `${frame}: ${describe(error)}`, ref);
}

/**
 * Why a frame was not taken; undefined for a failure that may pass (a conflict, the store
 * unavailable): no answer then, so the daemon's resend is taken like the first try.
 */
export function refusalOf(
  frame: string,
  e: unknown,
  logger: Pick<Logger, 'error'>,
  ref: Record<string, unknown> = {},
): Refusal | undefined {
  const answer = toErrorAnswer(e, logger);
  if (answer.code === ErrorCode.Conflict || answer.code === ErrorCode.Unavailable) return undefined;
  return refused(frame, answer.code, answer.message, ref);
}

/** The ids that say which frame a refusal is about, as the frame gave them (never more). */
export function refOf(data: unknown, keys: readonly string[]): Record<string, unknown> {
  if (typeof data !== 'object' || data === null) return {};
  const ref: Record<string, unknown> = {};
  for (const key of keys) {
    const value = (data as Record<string, unknown>)[key];
    if (typeof value === 'number' || (typeof value === 'string' && value.length <= 200))
      ref[key] = value;
  }
  return ref;
}
