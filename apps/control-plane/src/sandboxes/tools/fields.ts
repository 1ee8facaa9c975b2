import {
  EXEC_COMMAND_MAX_LENGTH,
  EXEC_TIMEOUT_MAX_SECONDS,
  EXEC_TIMEOUT_MIN_SECONDS,
  FILE_PATH_MAX_LENGTH,
  IDLE_TIMEOUT_MAX_SECONDS,
  SANDBOX_SIZES,
} from '@sessionboxer/domain/sandbox';
import { z } from 'zod';

/** The zod fields the sandbox tools share; the limits are the domain's constants. */
export const sandboxRef = () =>
  z.string().min(1).max(200).describe("Required. The sandbox's name or id.");

export const sizeField = () =>
  z
    .enum(SANDBOX_SIZES as [string, ...string[]])
    .describe('small, standard, large or xl. Default small.');

export const idleTimeoutField = () =>
  z
    .number()
    .int()
    .min(0)
    .max(IDLE_TIMEOUT_MAX_SECONDS)
    .describe('Stop after this many seconds without use: 0 (never) or 60 to 604800.');

export const stopWhenAgentsFinishField = () =>
  z
    .boolean()
    .describe(
      "Stop once the sandbox's coding agents have finished a turn, none is running or queued, and nothing used it for 2 minutes.",
    );

export const metadataField = () =>
  z
    .record(z.string())
    .describe(
      'Labels such as {"user": "42"}: up to 16 keys of 1 to 40 lowercase letters, digits, _, . or -; values up to 256 characters.',
    );

export const absolutePathField = (example: string) =>
  z
    .string()
    .min(1)
    .max(FILE_PATH_MAX_LENGTH)
    .regex(/^\//, 'must be an absolute path')
    .describe(`Required. Absolute, for example ${example}.`);

export const commandField = () =>
  z.string().min(1).max(EXEC_COMMAND_MAX_LENGTH).describe('Required. A shell command line.');

export const timeoutField = () =>
  z
    .number()
    .int()
    .min(EXEC_TIMEOUT_MIN_SECONDS)
    .max(EXEC_TIMEOUT_MAX_SECONDS)
    .describe('1 to 600. Default 60.');
