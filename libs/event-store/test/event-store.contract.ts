/**
 * THE event store contract: EventStoreDB's semantics, which every adapter of the port must
 * pass. An adapter's test file calls `describeEventStoreContract` with a factory that hands
 * each test a fresh store (see sqlite-event-store.int.ts, eventstoredb-event-store.esdb.ts).
 *
 * Tests use streams no other test uses and look only at their own events, so the suite also
 * runs against a shared server that already holds data.
 */
import { appendContract } from './contract/append.contract';
import { concurrencyContract } from './contract/concurrency.contract';
import { useStore, type StoreFactory } from './contract/fixtures';
import { idempotencyContract } from './contract/idempotency.contract';
import { readContract } from './contract/read.contract';
import { subscriptionContract } from './contract/subscription.contract';

export type { StoreFactory } from './contract/fixtures';

/** Declares the whole contract suite for one adapter. */
export function describeEventStoreContract(name: string, factory: StoreFactory): void {
  describe(`${name} (event store contract)`, () => {
    const store = useStore(factory);
    appendContract(store);
    idempotencyContract(store);
    readContract(store);
    subscriptionContract(store);
    concurrencyContract(store);
  });
}
