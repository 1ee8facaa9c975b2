import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Actor } from '@sessionboxer/domain/kernel';
import { RequestActor } from '../auth';
import { InboxService } from './inbox.service';

/** The signed-in person's inbox; who reads is the connection's person, never the body. */
@ApiTags('inbox')
@Controller('api/inbox')
export class InboxController {
  constructor(private readonly inbox: InboxService) {}

  @Get()
  list(@RequestActor() actor: Actor) {
    return this.inbox.list(actor);
  }

  @Post('read')
  @HttpCode(200)
  read(@Body() body: unknown, @RequestActor() actor: Actor) {
    return this.inbox.markRead(body, actor);
  }
}
