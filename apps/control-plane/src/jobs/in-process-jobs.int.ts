/** The in-process adapter against the shared contract. */
import { InProcessJobs } from './in-process-jobs';
import { CONTRACT_RETRY, describeJobsContract } from './test/jobs.contract';

// Nothing outlives an instance, so a "restart" is simply a new one: what it knows comes from
// the contract's boot calls, as it comes from the event history in the control plane.
describeJobsContract('InProcessJobs', () =>
  Promise.resolve({
    open: (logger) => new InProcessJobs({ logger, retry: CONTRACT_RETRY }),
    cleanup: () => Promise.resolve(),
  }),
);
