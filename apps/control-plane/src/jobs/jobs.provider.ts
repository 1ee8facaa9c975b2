import { Logger, type FactoryProvider } from '@nestjs/common';
import { BullmqJobs } from './bullmq-jobs';
import { InProcessJobs } from './in-process-jobs';
import type { JobsLogger, JobsPort } from './jobs.port';

/** Injection token of the jobs port. */
export const JOBS = Symbol('JobsPort');

export interface JobsConfig {
  /** Redis for BullMQ (scale-out); null keeps the jobs in this process (the default). */
  redisUrl: string | null;
  /** BullMQ key prefix, so control planes sharing one Redis for other things do not collide. */
  prefix?: string;
}

/** REDIS_URL, as docker-compose sets it; unset or empty means in-process. */
export function jobsConfigFromEnv(env: NodeJS.ProcessEnv = process.env): JobsConfig {
  const url = env.REDIS_URL?.trim();
  return { redisUrl: url ? url : null };
}

export function createJobs(config: JobsConfig, logger: JobsLogger = new Logger('Jobs')): JobsPort {
  if (!config.redisUrl) return new InProcessJobs({ logger });
  return new BullmqJobs({ url: config.redisUrl, prefix: config.prefix, logger });
}

/**
 * The port as a Nest provider. Whoever wires it registers the handlers, replays the event
 * history into it (upsertSchedule / schedule), subscribes onDataLost to a rebuild, then calls
 * start() at bootstrap and close() at shutdown: this factory starts nothing by itself.
 */
export function jobsProvider(config: JobsConfig = jobsConfigFromEnv()): FactoryProvider<JobsPort> {
  return { provide: JOBS, useFactory: () => createJobs(config) };
}
