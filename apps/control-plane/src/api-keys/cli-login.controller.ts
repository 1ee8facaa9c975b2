import { Body, Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@sessionboxer/domain/kernel';
import type { Request } from 'express';
import { Public, RequestActor } from '../auth';
import { CliLogins } from './cli-logins.service';

/**
 * `sessionboxer login` over HTTP: the CLI starts a request and polls (public: it has no key
 * yet; the poll token is its secret), a signed-in person sees the request on the web UI's
 * /cli-login/<id> page and approves or denies it.
 */
@ApiTags('orgs and API keys')
@Controller('api/cli-login')
export class CliLoginController {
  constructor(private readonly logins: CliLogins) {}

  @Public()
  @Post()
  @ApiOperation({ summary: 'Start a CLI login: a code, a page to approve it on, a poll token' })
  start(@Body() body: { org?: unknown; client?: unknown }, @Req() req: Request) {
    return this.logins.start(body ?? {}, req.ip ?? 'unknown');
  }

  @Public()
  @Post('poll')
  @HttpCode(200)
  @ApiOperation({ summary: 'The CLI polls: pending, denied, expired, or (once) the new key' })
  poll(@Body() body: { poll_token?: unknown }) {
    return this.logins.poll(body?.poll_token);
  }

  @Get(':requestId')
  @ApiOperation({ summary: 'A pending login request, for the page that approves it' })
  view(@Param('requestId') requestId: string) {
    return this.logins.view(requestId);
  }

  @Post(':requestId/approve')
  @HttpCode(200)
  approve(@Param('requestId') requestId: string, @RequestActor() actor: Actor) {
    return this.logins.decide(requestId, 'approved', actor);
  }

  @Post(':requestId/deny')
  @HttpCode(200)
  deny(@Param('requestId') requestId: string, @RequestActor() actor: Actor) {
    return this.logins.decide(requestId, 'denied', actor);
  }
}
