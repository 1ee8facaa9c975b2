import { Module } from '@nestjs/common';
import type { AppConfig } from '../config';
import { APP_CONFIG } from '../infrastructure/tokens';
import { createJobs, JOBS } from './jobs.provider';

/** The jobs port: BullMQ when REDIS_URL is set, else in-process (jobs.provider). */
@Module({
  providers: [
    {
      provide: JOBS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => createJobs({ redisUrl: config.redisUrl }),
    },
  ],
  exports: [JOBS],
})
export class JobsModule {}
