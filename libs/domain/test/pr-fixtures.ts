import type {
  AttachPr,
  MarkPrItemsAddressed,
  PrAttached,
  PrCheckChanged,
  PrItemInput,
  PrItemReceived,
  PrItemsAddressed,
  PrRef,
  PrState,
  PrStateChanged,
  RecordPrItems,
  RecordPrState,
} from '../src';
import { AT, meta } from './session-fixtures';

/** Builders for pull-request commands and events; every one is about REF unless told. */
export const REF: PrRef = { sessionId: 's1', owner: 'acme', repo: 'api', number: 12 };
export const PR_URL = 'https://github.com/acme/api/pull/12';

type AttachFields = Omit<AttachPr['data'], keyof PrRef>;
const ATTACH: AttachFields = { url: PR_URL, title: 'Add retries', state: 'open' };

export function attachPr(fields: Partial<AttachFields & PrRef> = {}, at = AT): AttachPr {
  return { type: 'AttachPr', data: { ...REF, ...ATTACH, ...fields }, metadata: meta({ at }) };
}

export function prAttached(fields: Partial<AttachFields & PrRef> = {}, at = AT): PrAttached {
  return { type: 'PrAttached', data: { ...REF, ...ATTACH, ...fields, at } };
}

export function recordPrState(state: PrState, title: string, ref = REF): RecordPrState {
  return { type: 'RecordPrState', data: { ...ref, state, title }, metadata: meta() };
}

export function prStateChanged(
  state: PrState,
  title: string,
  previous: { state: PrState; title: string } = { state: 'open', title: 'Add retries' },
): PrStateChanged {
  const data = { state, title, previousState: previous.state, previousTitle: previous.title };
  return { type: 'PrStateChanged', data: { ...REF, ...data, at: AT } };
}

export function reviewComment(id: string, fields: Partial<PrItemInput> = {}): PrItemInput {
  return {
    id,
    kind: 'review_comment',
    author: 'grace',
    body: 'Please add a test',
    path: 'src/retry.ts',
    line: 14,
    conclusion: null,
    url: `${PR_URL}#discussion_r${id}`,
    createdAt: '2026-01-02T03:00:00Z',
    ...fields,
  };
}

export function check(id: string, conclusion: string | null, fields: Partial<PrItemInput> = {}) {
  return reviewComment(id, {
    kind: 'check',
    author: null,
    body: 'build',
    path: null,
    line: null,
    conclusion,
    url: null,
    ...fields,
  });
}

export function recordPrItems(items: unknown[], ref = REF): RecordPrItems {
  return {
    type: 'RecordPrItems',
    data: { ...ref, items: items as PrItemInput[] },
    metadata: meta(),
  };
}

export function prItemReceived(item: PrItemInput, ref = REF): PrItemReceived {
  return { type: 'PrItemReceived', data: { ...ref, item, at: AT } };
}

export function prCheckChanged(
  itemId: string,
  conclusion: string | null,
  previousConclusion: string | null,
): PrCheckChanged {
  return {
    type: 'PrCheckChanged',
    data: { ...REF, itemId, conclusion, previousConclusion, at: AT },
  };
}

export function markAddressed(itemIds: string[], ref = REF): MarkPrItemsAddressed {
  return { type: 'MarkPrItemsAddressed', data: { ...ref, itemIds }, metadata: meta() };
}

export function prItemsAddressed(itemIds: string[], ref = REF): PrItemsAddressed {
  return { type: 'PrItemsAddressed', data: { ...ref, itemIds, at: AT } };
}
