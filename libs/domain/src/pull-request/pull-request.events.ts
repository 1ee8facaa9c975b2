import type { DomainEvent } from '../kernel';
import type { PrItemInput, PrRef, PrState } from './pull-request.commands';

/** Every event carries the whole PrRef and the command's `at`. */
export type PrAttached = DomainEvent<
  'PrAttached',
  PrRef & { url: string; title: string; state: PrState; at: string }
>;

export type PrStateChanged = DomainEvent<
  'PrStateChanged',
  PrRef & {
    state: PrState;
    title: string;
    previousState: PrState;
    previousTitle: string;
    at: string;
  }
>;

/** One per new item; `item` is as validated (its body cut at 4,000 characters). */
export type PrItemReceived = DomainEvent<
  'PrItemReceived',
  PrRef & { item: PrItemInput; at: string }
>;

export type PrCheckChanged = DomainEvent<
  'PrCheckChanged',
  PrRef & {
    itemId: string;
    conclusion: string | null;
    previousConclusion: string | null;
    at: string;
  }
>;

/** Only the items newly addressed by this command. */
export type PrItemsAddressed = DomainEvent<
  'PrItemsAddressed',
  PrRef & { itemIds: string[]; at: string }
>;

export type PrEvent =
  PrAttached | PrStateChanged | PrItemReceived | PrCheckChanged | PrItemsAddressed;

export const PR_EVENT_TYPES: readonly PrEvent['type'][] = [
  'PrAttached',
  'PrStateChanged',
  'PrItemReceived',
  'PrCheckChanged',
  'PrItemsAddressed',
];

/** Narrows an event read from a store to a pull-request event. */
export function isPrEvent(event: { type: string; data: unknown }): event is PrEvent {
  return (PR_EVENT_TYPES as readonly string[]).includes(event.type);
}
