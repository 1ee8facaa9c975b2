import type { RecordedEvent } from '@sessionboxer/event-store';
import { applyEvents, SqliteReadModelStore, type Projection, type ReadModelReader } from '../src';

/**
 * Given/when/then for projections, through the real store (SQLite in memory) and the same
 * applyEvents the runner uses:
 *
 *   ProjectionSpecification.for(projection).given(recorded([...])).then({ id: doc, … })
 *   ProjectionSpecification.for(projection).given(…).thenQuery((r) => queries(r).list(), [...])
 */
export interface ProjectionThen<Doc> {
  /** Every document of the projection, by id. */
  then(expected: Record<string, Doc>): void;
  thenQuery<R>(query: (reader: ReadModelReader) => R, expected: R): void;
}

function withStore<Doc, T>(
  projection: Projection<Doc>,
  events: readonly RecordedEvent[],
  use: (store: SqliteReadModelStore) => T,
): T {
  const store = SqliteReadModelStore.open({ path: ':memory:' });
  try {
    const cursors = store.register([projection]).map((checkpoint) => ({ projection, checkpoint }));
    const [{ checkpoint }] = applyEvents(store, cursors, events);
    if (checkpoint.failure !== null) {
      throw new Error(`${projection.name} failed: ${JSON.stringify(checkpoint.failure)}`);
    }
    return use(store);
  } finally {
    store.close();
  }
}

export const ProjectionSpecification = {
  for<Doc>(projection: Projection<Doc>) {
    return {
      given: (events: readonly RecordedEvent[]): ProjectionThen<Doc> => ({
        then(expected) {
          const docs = withStore(projection, events, (store) =>
            Object.fromEntries([...store.scan(projection.name)].map((d) => [d.id, d.doc])),
          );
          expect(docs).toEqual(expected);
        },
        thenQuery(query, expected) {
          expect(withStore(projection, events, query)).toEqual(expected);
        },
      }),
    };
  },
};
