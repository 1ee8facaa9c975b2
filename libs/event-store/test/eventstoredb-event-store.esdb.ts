/**
 * The EventStoreDB adapter against the shared contract, on a real server. Jest collects this
 * file only when EVENTSTORE_URL is set (e.g. `esdb://localhost:2113?tls=false`); see
 * jest.config.js. Tests use fresh stream names, so a server that already holds data is fine.
 */
import { EventStoreDbEventStore } from '@sessionboxer/event-store/eventstoredb';
import { describeEventStoreContract } from './event-store.contract';

const url = process.env.EVENTSTORE_URL;
if (!url) throw new Error('EVENTSTORE_URL must be set to run the EventStoreDB contract suite');

describeEventStoreContract('EventStoreDbEventStore', () => {
  const store = EventStoreDbEventStore.connect(url);
  return Promise.resolve({ store, cleanup: () => store.close() });
});
