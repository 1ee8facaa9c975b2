import { Module } from '@nestjs/common';
import type { AppConfig } from '../config';
import { APP_CONFIG } from '../infrastructure/tokens';
import { PushController } from './push.controller';
import { PushReactor } from './push.reactor';
import { PushStore } from './push-store';
import { PUSH_STORE } from './push.tokens';

/** Web Push (VAPID) of new inbox items to the devices people enrolled. */
@Module({
  controllers: [PushController],
  providers: [
    {
      provide: PUSH_STORE,
      inject: [APP_CONFIG],
      useFactory: (c: AppConfig) => new PushStore(c.dataDir),
    },
    PushReactor,
  ],
})
export class PushModule {}
