import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
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

/** An `Idempotency-Key` header makes a retried POST return its first result. */
export const IdempotencyKey = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): string | undefined => {
    const value = ctx.switchToHttp().getRequest<Request>().header('idempotency-key');
    return value && value.length > 0 ? value : undefined;
  },
);
