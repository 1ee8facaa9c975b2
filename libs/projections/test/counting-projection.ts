import { randomUUID } from 'node:crypto';
import type { NewEvent } from '@sessionboxer/event-store';
import type { Projection } from '../src';

/**
 * Counts every event it applies in one document, so an event applied twice (or skipped) shows
 * as a wrong count. `failOn` makes it throw on the event at that position.
 */
export function countingProjection(
  options: { name?: string; version?: number; failOn?: number; handles?: readonly string[] } = {},
): Projection<{ n: number; last: number }> {
  return {
    name: options.name ?? 'counter',
    version: options.version ?? 1,
    handles: options.handles ?? ['Ticked'],
    apply(event, get) {
      if (event.position === options.failOn) throw new Error(`cannot take ${event.position}`);
      const n = (get('count')?.n ?? 0) + 1;
      return [{ id: 'count', doc: { n, last: event.position } }];
    },
  };
}

export function ticks(count: number, from = 0): NewEvent[] {
  return Array.from({ length: count }, (_, i) => {
    const id = randomUUID();
    return {
      id,
      type: 'Ticked',
      data: { n: from + i },
      metadata: {
        commandId: id,
        correlationId: id,
        causationId: id,
        actor: { kind: 'system', id: 'test' },
        at: '2026-01-01T00:00:00.000Z',
      },
    };
  });
}
