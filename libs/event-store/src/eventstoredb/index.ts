/** The EventStoreDB adapter: `import { EventStoreDbEventStore } from '@sessionboxer/event-store/eventstoredb'`. */
export { EventStoreDbEventStore } from './eventstoredb-event-store';
