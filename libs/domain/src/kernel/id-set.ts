/**
 * A persistent set of ids for aggregate state that only grows (a session's notification ids):
 * adding one copies only the newest chunk of at most CHUNK ids and the list of chunks, never
 * the whole set, so a long-lived aggregate's fold stays cheap. Older states stay valid (the
 * stream state cache keeps them): nothing is ever changed in place.
 */
export interface IdSet {
  readonly chunks: readonly ReadonlySet<string>[];
}

const CHUNK = 256;

export const EMPTY_ID_SET: IdSet = { chunks: [] };

export function idSetHas(set: IdSet, id: string): boolean {
  return set.chunks.some((chunk) => chunk.has(id));
}

export function idSetAdd(set: IdSet, id: string): IdSet {
  if (idSetHas(set, id)) return set;
  const last = set.chunks[set.chunks.length - 1];
  if (last !== undefined && last.size < CHUNK) {
    return { chunks: [...set.chunks.slice(0, -1), new Set(last).add(id)] };
  }
  return { chunks: [...set.chunks, new Set([id])] };
}

export function idSetSize(set: IdSet): number {
  return set.chunks.reduce((n, chunk) => n + chunk.size, 0);
}
