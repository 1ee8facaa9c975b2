import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import type { Request } from 'express';
import { AuthService } from './auth.service';
import { PUBLIC_ROUTE } from './public.decorator';

/** The signed-in person, put on the request by the guard for RequestActor to read. */
export const SIGNED_IN = Symbol('signedIn');
export type SignedInRequest = Request & { [SIGNED_IN]?: string };

/**
 * Every HTTP route needs a signed-in person unless marked @Public(). WebSocket sockets are
 * checked once, at their handshake (see UiWsAuth); their messages are not HTTP.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly auth: AuthService,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const isPublic = this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) return true;
    const request = context.switchToHttp().getRequest<SignedInRequest>();
    const username = await this.auth.identify(request.headers);
    if (username === null)
      throw new DomainError(
        ErrorCode.Unauthenticated,
        'sign in first: POST /api/auth/sign-in, then send the sb_session cookie or Authorization: Bearer <token>',
      );
    request[SIGNED_IN] = username;
    return true;
  }
}
