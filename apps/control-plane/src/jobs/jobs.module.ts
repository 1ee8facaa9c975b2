import { Module } from '@nestjs/common';
import type { AppConfig } from '../config';
import { installationKey } from '../infrastructure/shared-state';
import { APP_CONFIG } from '../infrastructure/tokens';
import { createJobs, JOBS } from './jobs.provider';

/** The jobs port: BullMQ when REDIS_URL is set, else in-process (jobs.provider). */
@Module({
  providers: [
    {
      provide: JOBS,
      inject: [APP_CONFIG],
      // One installation's instances share one queue; another installation on the Redis does not.
      useFactory: (config: AppConfig) =>
        createJobs({
          redisUrl: config.redisUrl,
          prefix: `sessionboxer:${installationKey(config)}`,
        }),
    },
  ],
  exports: [JOBS],
})
export class JobsModule {}
