import { Logger } from '@nestjs/common';
import { allows } from '@sessionboxer/domain/api-key';
import { ErrorCode, isDomainError } from '@sessionboxer/domain/kernel';
import { refusal, refusalCode } from '@sessionboxer/domain/sandbox';
import { z } from 'zod';
import type { KeyIdentity } from '../api-keys';
import { errorCodeToHttp } from '../errors/error-mapping';
import type { AnySandboxTool, SandboxApi } from './tools';

/** What a call answers: the tool's result, or a refusal with the spec's code and why. */
export type CallOutcome =
  | { ok: true; result: unknown }
  | {
      ok: false;
      status: number;
      error: { error: string; message: string; details?: Record<string, unknown> };
    };

const logger = new Logger('SandboxApi');

/** The one path of every call, MCP or REST: scope, the tool's zod schema, its handler. */
export async function callTool(
  tool: AnySandboxTool,
  api: SandboxApi,
  caller: KeyIdentity,
  args: unknown,
): Promise<CallOutcome> {
  try {
    if (!allows(caller.scopes, tool.scope)) {
      throw refusal(
        'forbidden',
        ErrorCode.Forbidden,
        `${tool.name} needs an API key with the ${tool.scope} scope`,
      );
    }
    const parsed = z
      .object(tool.input)
      .strict()
      .safeParse(args ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field =
        issue.path.join('.') ||
        (issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : 'arguments');
      throw refusal('invalid_argument', ErrorCode.ValidationFailed, `${field}: ${issue.message}`, {
        field,
      });
    }
    return { ok: true, result: await tool.handle(api, caller, parsed.data) };
  } catch (e) {
    if (isDomainError(e)) {
      const { code: _code, ...details } = e.details ?? {};
      const error = {
        error: refusalCode(e),
        message: e.message,
        ...(Object.keys(details).length ? { details } : {}),
      };
      return { ok: false, status: errorCodeToHttp[e.code], error };
    }
    logger.error(`${tool.name} failed: ${e instanceof Error ? e.stack : String(e)}`);
    return {
      ok: false,
      status: 503,
      error: {
        error: 'unavailable',
        message: `${tool.name} failed on the control plane; try again`,
      },
    };
  }
}
