import { existsSync } from 'node:fs';
import type { EventStore } from '@sessionboxer/event-store';
import type { AnyProjection } from '../projection';
import type { Checkpoint } from '../store/read-model-store';
import { SqliteReadModelStore } from '../store/sqlite-read-model-store';
import { applyEvents, type ProjectionCursor } from './apply-events';

/**
 * How far a rebuild is. Positions are not event counts on every store (EventStoreDB's are byte
 * offsets), so the fraction done is position / headPosition, and eventsDone is a plain count.
 */
export interface RebuildProgress {
  eventsDone: number;
  position: number;
  headPosition: number;
}

export interface RebuildOptions {
  eventStore: EventStore;
  /** A file that must not exist yet: a rebuild never mixes with an older read model. */
  path: string;
  projections: readonly AnyProjection[];
  /** Inclusive. Default: the store's head when the rebuild starts (a point in time to audit). */
  toPosition?: number;
  /**
   * Events per read and per transaction. Default 5,000: bigger transactions write each hot
   * index page fewer times.
   */
  batchSize?: number;
  onProgress?: (progress: RebuildProgress) => void;
}

export interface RebuildResult {
  path: string;
  eventsDone: number;
  /** Every projection's checkpoint, with the failure of any that stopped on an event. */
  checkpoints: Checkpoint[];
}

/**
 * Builds every read model from position 0 into a fresh file, with the same code the runner
 * uses, so comparing it with the live file (compareReadModels) checks the live one.
 */
export async function rebuildReadModels(options: RebuildOptions): Promise<RebuildResult> {
  if (existsSync(options.path)) {
    throw new Error(`${options.path} exists; a rebuild writes a fresh read-model file`);
  }
  const { eventStore, projections } = options;
  const headPosition = options.toPosition ?? (await eventStore.headPosition());
  const batchSize = options.batchSize ?? 5000;
  const store = SqliteReadModelStore.open({ path: options.path, bulk: true });
  try {
    let cursors: ProjectionCursor[] = store
      .register(projections)
      .map((checkpoint, i) => ({ projection: projections[i], checkpoint }));
    let from = 0;
    let eventsDone = 0;
    while (from <= headPosition) {
      const page = await eventStore.readAll({ fromPosition: from, maxCount: batchSize });
      const events = page.filter((e) => e.position <= headPosition);
      if (events.length === 0) break;
      cursors = applyEvents(store, cursors, events);
      eventsDone += events.length;
      from = events[events.length - 1].position + 1;
      options.onProgress?.({ eventsDone, position: from - 1, headPosition });
    }
    return { path: options.path, eventsDone, checkpoints: cursors.map((c) => c.checkpoint) };
  } finally {
    store.close();
  }
}
