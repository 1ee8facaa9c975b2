import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  NotFoundException,
  Post,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import type { Actor } from '@sessionboxer/domain/kernel';
import { RequestActor } from '../auth';
import type { AppConfig } from '../config';
import { APP_CONFIG } from '../infrastructure/tokens';
import { pushEndpoint, pushSubscription } from './push-subscription';
import { PUSH_STORE } from './push.tokens';
import type { PushStore } from './push-store';

function person(actor: Actor): string {
  if (actor.kind !== 'person') {
    throw new DomainError(ErrorCode.Forbidden, 'only a signed-in person enrols devices');
  }
  return actor.id;
}

/** Web Push enrolment of the signed-in person's devices (the person from the connection). */
@ApiTags('push')
@Controller('api/push')
export class PushController {
  constructor(
    @Inject(PUSH_STORE) private readonly store: PushStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('public-key')
  publicKey() {
    return { publicKey: this.store.keys().publicKey };
  }

  @Post('subscriptions')
  @HttpCode(201)
  subscribe(@Body() body: unknown, @RequestActor() actor: Actor) {
    const sub = pushSubscription(body, this.config.pushAllowLocalHttp);
    this.store.put({ userId: person(actor), ...sub });
    return { endpoint: sub.endpoint };
  }

  @Delete('subscriptions')
  @HttpCode(204)
  unsubscribe(@Body() body: { endpoint?: unknown }, @RequestActor() actor: Actor): void {
    const endpoint = pushEndpoint(body?.endpoint, true);
    if (!this.store.remove(endpoint, person(actor))) {
      throw new NotFoundException({ message: 'no such subscription of yours' });
    }
  }
}
