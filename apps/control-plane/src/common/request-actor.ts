import { BadRequestException, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ErrorCode } from '@sessionboxer/domain';
import type { Actor } from '@sessionboxer/domain';
import type { Request } from 'express';

/**
 * Who is calling, from the connection. Until people sign in (the web UI issue), the admin API
 * listens on loopback only and every caller is the local operator. A payload never names its
 * actor.
 */
export const RequestActor = createParamDecorator((_: unknown, ctx: ExecutionContext): Actor => {
  ctx.switchToHttp().getRequest<Request>();
  return { kind: 'person', id: 'local-operator' };
});

const MAX_KEY = 200;

/** An `Idempotency-Key` header makes a retried write return its first result. */
export const IdempotencyKey = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): string | undefined => {
    const value = ctx.switchToHttp().getRequest<Request>().header('idempotency-key');
    if (value === undefined || value.length === 0) return undefined;
    if (value.length > MAX_KEY || /[^\x21-\x7e]/.test(value)) {
      throw new BadRequestException({
        error: ErrorCode.ValidationFailed,
        message: `Idempotency-Key must be 1–${MAX_KEY} printable ASCII characters without spaces`,
      });
    }
    return value;
  },
);
