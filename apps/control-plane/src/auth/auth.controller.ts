import { Body, Controller, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@sessionboxer/domain';
import type { Request, Response } from 'express';
import { RequestActor } from './request-actor';
import type { AppConfig } from '../config';
import { APP_CONFIG } from '../infrastructure/tokens';
import { AuthService } from './auth.service';
import { sessionCookie } from './credentials-of';
import { Public } from './public.decorator';

@ApiTags('auth')
@Controller('api/auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Public()
  @Post('sign-in')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Sign in with the local account: sets the sb_session cookie, returns the token',
  })
  async signIn(
    @Body() body: { username?: unknown; password?: unknown } | undefined,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ username: string; token: string }> {
    // req.ip is the client's address; behind a proxy set SESSIONBOXER_TRUST_PROXY so it is.
    const address = req.ip ?? req.socket.remoteAddress ?? '?';
    const signed = await this.auth.signIn(body?.username, body?.password, {
      address,
      headers: req.headers,
    });
    const secure = this.config.publicUrl.startsWith('https:');
    res.setHeader('set-cookie', sessionCookie(signed.token, secure, this.auth.idleLimitSeconds));
    return signed;
  }

  @Public()
  @Post('sign-out')
  @HttpCode(204)
  @ApiOperation({ summary: 'End this sign-in (its token stops working)' })
  async signOut(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<void> {
    await this.auth.signOut(req.headers);
    res.setHeader('set-cookie', sessionCookie('', false, 0));
  }

  @Get('me')
  @ApiOperation({ summary: 'Who is signed in' })
  me(@RequestActor() actor: Actor): { username: string } {
    // RequestActor only ever makes a person.
    return { username: actor.kind === 'person' ? actor.id : '' };
  }
}
