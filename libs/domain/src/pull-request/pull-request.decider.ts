import { assertNever, DomainError, ErrorCode, type Decider } from '../kernel';
import { has } from '../kernel/validation';
import type {
  AttachPr,
  MarkPrItemsAddressed,
  PrCommand,
  PrRef,
  RecordPrItems,
  RecordPrState,
} from './pull-request.commands';
import type { PrEvent } from './pull-request.events';
import {
  attachedPr,
  initialPullRequestState,
  type AttachedPr,
  type PrItemState,
  type PullRequestState,
} from './pull-request.state';
import { formatPrId, prKey, validPrRef } from './pr-id';
import {
  validItemIds,
  validItems,
  validPrState,
  validPrTitle,
  validUrl,
} from './pull-request.validation';

/** The stream is chosen from the command's ref; one that names another PR is refused. */
function sameRef(pr: AttachedPr, ref: PrRef): AttachedPr {
  if (prKey(pr.ref) !== prKey(ref) || pr.ref.sessionId !== ref.sessionId) {
    throw new DomainError(
      ErrorCode.ValidationFailed,
      `the command names ${formatPrId(ref)} of session ${ref.sessionId}, but this stream holds ${formatPrId(pr.ref)} of session ${pr.ref.sessionId}`,
      { field: 'number' },
    );
  }
  return pr;
}

/** Attaching a PR twice changes nothing; the pipeline answers with the state as it is. */
function attach(command: AttachPr, state: PullRequestState): PrEvent[] {
  const { data, metadata } = command;
  const ref = validPrRef(data);
  const fields = {
    url: validUrl(data.url, 'url'),
    title: validPrTitle(data.title),
    state: validPrState(data.state),
  };
  if (state.status === 'attached') {
    sameRef(state, ref);
    return [];
  }
  return [{ type: 'PrAttached', data: { ...ref, ...fields, at: metadata.at } }];
}

function recordState(command: RecordPrState, state: PullRequestState): PrEvent[] {
  const { data, metadata } = command;
  const ref = validPrRef(data);
  const prState = validPrState(data.state);
  const title = validPrTitle(data.title);
  const pr = sameRef(attachedPr(state, ref), ref);
  if (prState === pr.state && title === pr.title) return [];
  const changed = { state: prState, title, previousState: pr.state, previousTitle: pr.title };
  return [{ type: 'PrStateChanged', data: { ...ref, ...changed, at: metadata.at } }];
}

/** Items are taken in order, so an id repeated in one batch is new once, then a known one. */
function recordItems(command: RecordPrItems, state: PullRequestState): PrEvent[] {
  const { data, metadata } = command;
  const ref = validPrRef(data);
  const items = validItems(data.items);
  const pr = sameRef(attachedPr(state, ref), ref);
  const known = new Map<string, PrItemState>(Object.entries(pr.items));
  const events: PrEvent[] = [];
  for (const item of items) {
    const seen = known.get(item.id);
    if (seen === undefined) {
      known.set(item.id, { kind: item.kind, conclusion: item.conclusion, addressed: false });
      events.push({ type: 'PrItemReceived', data: { ...ref, item, at: metadata.at } });
    } else if (seen.kind === 'check' && item.conclusion !== seen.conclusion) {
      known.set(item.id, { ...seen, conclusion: item.conclusion });
      const change = { itemId: item.id, conclusion: item.conclusion };
      const previous = { previousConclusion: seen.conclusion };
      events.push({
        type: 'PrCheckChanged',
        data: { ...ref, ...change, ...previous, at: metadata.at },
      });
    }
  }
  return events;
}

function markAddressed(command: MarkPrItemsAddressed, state: PullRequestState): PrEvent[] {
  const { data, metadata } = command;
  const ref = validPrRef(data);
  const itemIds = validItemIds(data.itemIds);
  const pr = sameRef(attachedPr(state, ref), ref);
  const unknown = itemIds.filter((id) => !has(pr.items, id));
  if (unknown.length > 0) {
    const names = unknown.join(', ');
    const what =
      unknown.length === 1 ? `item ${names} is not an item` : `items ${names} are not items`;
    throw new DomainError(
      ErrorCode.NotFound,
      `${what} of ${formatPrId(ref)}; pr_items lists them`,
      {
        prId: formatPrId(ref),
        itemIds: unknown,
      },
    );
  }
  const fresh = itemIds.filter((id) => !pr.items[id].addressed);
  if (fresh.length === 0) return [];
  return [{ type: 'PrItemsAddressed', data: { ...ref, itemIds: fresh, at: metadata.at } }];
}

function decide(command: PrCommand, state: PullRequestState): PrEvent[] {
  switch (command.type) {
    case 'AttachPr':
      return attach(command, state);
    case 'RecordPrState':
      return recordState(command, state);
    case 'RecordPrItems':
      return recordItems(command, state);
    case 'MarkPrItemsAddressed':
      return markAddressed(command, state);
    default:
      return assertNever(command);
  }
}

function setItem(pr: AttachedPr, id: string, item: PrItemState): AttachedPr {
  return { ...pr, items: { ...pr.items, [id]: item } };
}

function evolve(state: PullRequestState, event: PrEvent): PullRequestState {
  if (event.type === 'PrAttached') {
    const { sessionId, owner, repo, number, title, state: prState } = event.data;
    const ref = { sessionId, owner, repo, number };
    return { status: 'attached', ref, title, state: prState, items: {} };
  }
  if (state.status === 'absent') return state;
  switch (event.type) {
    case 'PrStateChanged':
      return { ...state, state: event.data.state, title: event.data.title };
    case 'PrItemReceived': {
      const { id, kind, conclusion } = event.data.item;
      return setItem(state, id, { kind, conclusion, addressed: false });
    }
    case 'PrCheckChanged': {
      const { itemId, conclusion } = event.data;
      return has(state.items, itemId)
        ? setItem(state, itemId, { ...state.items[itemId], conclusion })
        : state;
    }
    case 'PrItemsAddressed':
      return event.data.itemIds.reduce(
        (pr, id) =>
          has(pr.items, id) ? setItem(pr, id, { ...pr.items[id], addressed: true }) : pr,
        state,
      );
    default:
      return assertNever(event);
  }
}

export const pullRequestDecider: Decider<PrCommand, PrEvent, PullRequestState> = {
  decide,
  evolve,
  initialState: initialPullRequestState,
};
