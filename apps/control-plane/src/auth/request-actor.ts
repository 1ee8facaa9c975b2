import { BadRequestException, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import { SIGNED_IN, type SignedInRequest } from './auth.guard';
import type { Actor } from '@sessionboxer/domain';
import type { Request } from 'express';

/**
 * Who is calling, from the connection: the person the AuthGuard found signed in (every route
 * that reads an actor is behind it). A payload never names its actor.
 */
export const RequestActor = createParamDecorator((_: unknown, ctx: ExecutionContext): Actor => {
  const username = ctx.switchToHttp().getRequest<SignedInRequest>()[SIGNED_IN];
  if (username === undefined)
    throw new DomainError(ErrorCode.Unauthenticated, 'this route needs a signed-in person');
  return { kind: 'person', id: username };
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
