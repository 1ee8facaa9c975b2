import {
  assertNever,
  DomainError,
  ErrorCode,
  type Command,
  type Decider,
  type DomainEvent,
} from '../kernel';
import { exactId, invalid } from '../kernel/validation';

/**
 * A person's read state of the inbox (what needs them across sessions). One stream per person;
 * who read comes from the command's actor (the connection), never from the data.
 */
export const INBOX_READ_MAX_IDS = 1000;

export type MarkInboxItemsRead = Command<'MarkInboxItemsRead', { itemIds: string[] }>;
export type InboxCommand = MarkInboxItemsRead;

export type InboxItemsRead = DomainEvent<
  'InboxItemsRead',
  { userId: string; itemIds: string[]; at: string }
>;
export type InboxEvent = InboxItemsRead;

export const INBOX_EVENT_TYPES: readonly InboxEvent['type'][] = ['InboxItemsRead'];

export function isInboxEvent(event: { type: string; data: unknown }): event is InboxEvent {
  return (INBOX_EVENT_TYPES as readonly string[]).includes(event.type);
}

/** The ids already read, so reading one twice records nothing. */
export interface InboxState {
  read: readonly string[];
}

export function inboxStream(userId: string): string {
  return `inbox-${exactId(userId, 'userId')}`;
}

function itemIds(value: unknown): string[] {
  if (!Array.isArray(value)) throw invalid('itemIds', 'itemIds must be an array of item ids');
  if (value.length > INBOX_READ_MAX_IDS) {
    throw invalid('itemIds', `itemIds holds at most ${INBOX_READ_MAX_IDS} ids`);
  }
  return value.map((id, i) => {
    if (typeof id !== 'string' || !/^[A-Za-z0-9:_-]{1,200}$/.test(id)) {
      throw invalid('itemIds', `itemIds[${i}] must be an inbox item id`);
    }
    return id;
  });
}

function decide(command: InboxCommand, state: InboxState): InboxEvent[] {
  switch (command.type) {
    case 'MarkInboxItemsRead': {
      const { actor, at } = command.metadata;
      if (actor.kind !== 'person') {
        throw new DomainError(ErrorCode.Forbidden, 'only a signed-in person has an inbox');
      }
      const known = new Set(state.read);
      const fresh = [...new Set(itemIds(command.data.itemIds))].filter((id) => !known.has(id));
      if (fresh.length === 0) return [];
      return [{ type: 'InboxItemsRead', data: { userId: actor.id, itemIds: fresh, at } }];
    }
    default:
      return assertNever(command.type);
  }
}

function evolve(state: InboxState, event: InboxEvent): InboxState {
  switch (event.type) {
    case 'InboxItemsRead':
      return { read: [...state.read, ...event.data.itemIds] };
    default:
      return assertNever(event.type);
  }
}

export const inboxDecider: Decider<InboxCommand, InboxEvent, InboxState> = {
  decide,
  evolve,
  initialState: { read: [] },
};
