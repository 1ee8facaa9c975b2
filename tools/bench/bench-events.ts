/** The 1 KB events bench:store and bench:audit append, and how their rates are given. */
import { randomUUID } from 'node:crypto';
import type { NewEvent } from '@sessionboxer/event-store';

export const PAYLOAD = { blob: 'x'.repeat(940) };
export const METADATA = {
  commandId: randomUUID(),
  correlationId: randomUUID(),
  causationId: randomUUID(),
  actor: { kind: 'system' as const, id: 'bench' },
  at: new Date().toISOString(),
};
export const DATA_JSON = JSON.stringify(PAYLOAD);
export const METADATA_JSON = JSON.stringify(METADATA);

export function event(): NewEvent {
  return { id: randomUUID(), type: 'Benchmarked', data: PAYLOAD, metadata: METADATA };
}

/** Events per second. */
export function rate(events: number, ms: number): number {
  return Math.round((events / ms) * 1000);
}
