/**
 * THE jobs contract, which every adapter of the jobs port must pass. An adapter's test file
 * calls `describeJobsContract` with a factory whose backend opens adapter instances over one
 * backing store per test (see in-process-jobs.int.ts, bullmq-jobs.int.ts): opening a second
 * instance after closing the first is a restart.
 *
 * Timing is real (cron runs every second, one-shots a second ahead) and the bounds generous:
 * a fire is expected within a few seconds, never to the millisecond.
 */
import { cronContract } from './contract/cron.contract';
import { delayedContract } from './contract/delayed.contract';
import { restartContract } from './contract/restart.contract';
import { useJobs, type JobsFactory } from './fixtures';

export type { JobsBackend, JobsFactory } from './fixtures';
export { CONTRACT_RETRY } from './fixtures';

/** Declares the whole contract suite for one adapter. */
export function describeJobsContract(name: string, factory: JobsFactory): void {
  describe(`${name} (jobs contract)`, () => {
    const harness = useJobs(factory);
    cronContract(harness);
    delayedContract(harness);
    restartContract(harness);
  });
}
