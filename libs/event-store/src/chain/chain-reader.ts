import type { ChainedEvent } from './canonical';

/** What an adapter that keeps the chain offers beside the port: the events with their hashes. */
export interface ChainReader {
  /** Events from `fromPosition` (inclusive) forwards, raw as the chain hashed them. */
  readChain(fromPosition: number, maxCount: number): Promise<ChainedEvent[]>;
  /** The last event's position and hash, null when the store is empty. */
  chainHead(): Promise<{ position: number; hash: Buffer | null } | null>;
}

export function isChainReader(store: unknown): store is ChainReader {
  const s = store as Partial<ChainReader> | null;
  return typeof s?.readChain === 'function' && typeof s.chainHead === 'function';
}
