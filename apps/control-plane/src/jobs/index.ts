export { JobsModule } from './jobs.module';
export { JOBS, createJobs, jobsConfigFromEnv, type JobsConfig } from './jobs.provider';
export * from './jobs.port';
export {
  type CronSchedule,
  type DelayedJob,
  type JobFire,
  type JobsPort,
  type JobsSnapshot,
} from './jobs.port';
export { checkCron, checkTimezone, nextOccurrence } from './cron';
export { describeFire, errorText } from './fire-handlers';
