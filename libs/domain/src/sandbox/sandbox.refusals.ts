import { DomainError, ErrorCode } from '../kernel/errors';
import type { SandboxRefusalCode } from './sandbox.limits';

/** A refusal of the sandbox API: its spec code in `details.code`, its kind for HTTP. */
export function refusal(
  code: SandboxRefusalCode,
  kind: ErrorCode,
  message: string,
  details: Record<string, unknown> = {},
): DomainError {
  return new DomainError(kind, message, { ...details, code });
}

/** A bad parameter: names it, in the spec's words. */
export function badArgument(field: string, message: string): DomainError {
  return refusal('invalid_argument', ErrorCode.ValidationFailed, message, { field });
}

/** Another org's sandbox answers exactly like a missing one. */
export function noSandbox(ref: string): DomainError {
  return refusal('not_found', ErrorCode.NotFound, `there is no sandbox ${ref}`, { sandbox: ref });
}

/** The spec code of any error the sandbox API answers with. */
export function refusalCode(error: DomainError): SandboxRefusalCode {
  const code = error.details?.code;
  if (typeof code === 'string') return code as SandboxRefusalCode;
  const byKind: Partial<Record<ErrorCode, SandboxRefusalCode>> = {
    [ErrorCode.ValidationFailed]: 'invalid_argument',
    [ErrorCode.NotFound]: 'not_found',
    [ErrorCode.Forbidden]: 'forbidden',
    [ErrorCode.Unauthenticated]: 'unauthenticated',
    [ErrorCode.LimitReached]: 'limit_reached',
  };
  return byKind[error.code] ?? 'unavailable';
}
