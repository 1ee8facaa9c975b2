import {
  characters,
  cut,
  exactId,
  integer,
  invalid,
  isPlainObject,
  oneOf,
  text,
} from '../kernel/validation';
import {
  PR_ITEM_KINDS,
  PR_STATES,
  type PrItemInput,
  type PrItemKind,
  type PrState,
} from './pull-request.commands';

export const PR_ITEM_BODY_MAX = 4000;
export const PR_ITEMS_MAX = 500;
const TITLE_MAX = 1000;
const URL_MAX = 2048;
const URL = /^https?:\/\/[^\s/]+\S*$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const CONCLUSION = /^[a-z_]{1,40}$/;

export function validUrl(value: unknown, field: string): string {
  if (typeof value !== 'string' || !URL.test(value) || characters(value) > URL_MAX) {
    throw invalid(field, `${field} must be an http(s) URL of at most ${URL_MAX} characters`);
  }
  return value;
}

export function validPrTitle(value: unknown): string {
  return text(value, 'title', TITLE_MAX);
}

export function validPrState(value: unknown): PrState {
  return oneOf(value, 'state', PR_STATES);
}

function optional<T>(value: unknown, check: () => T): T | null {
  return value === null ? null : check();
}

function conclusionOf(value: unknown, kind: PrItemKind, field: string): string | null {
  if (value === null) return null;
  if (kind !== 'check') throw invalid(field, `${field} is for checks only; a ${kind} has null`);
  if (typeof value !== 'string' || !CONCLUSION.test(value)) {
    throw invalid(field, `${field} must be a lower-case word such as success or failure`);
  }
  return value;
}

/** One item, with every field checked and the body cut to 4,000 characters. */
function validItem(value: unknown, i: number): PrItemInput {
  const at = `items[${i}]`;
  if (!isPlainObject(value)) throw invalid(at, `${at} must be an object`);
  const kind = oneOf(value.kind, `${at}.kind`, PR_ITEM_KINDS);
  if (typeof value.body !== 'string') throw invalid(`${at}.body`, `${at}.body must be a string`);
  if (typeof value.createdAt !== 'string' || !ISO_TIME.test(value.createdAt)) {
    throw invalid(`${at}.createdAt`, `${at}.createdAt must be an ISO-8601 time`);
  }
  return {
    id: exactId(value.id, `${at}.id`),
    kind,
    author: optional(value.author, () => text(value.author, `${at}.author`, 100)),
    body: cut(value.body, PR_ITEM_BODY_MAX),
    path: optional(value.path, () => text(value.path, `${at}.path`, 1000)),
    line: optional(value.line, () => integer(value.line, `${at}.line`, 1, 10_000_000)),
    conclusion: conclusionOf(value.conclusion, kind, `${at}.conclusion`),
    url: optional(value.url, () => validUrl(value.url, `${at}.url`)),
    createdAt: value.createdAt,
  };
}

export function validItems(value: unknown): PrItemInput[] {
  if (!Array.isArray(value)) throw invalid('items', 'items must be a list');
  if (value.length > PR_ITEMS_MAX) {
    throw invalid('items', `at most ${PR_ITEMS_MAX} items at a time (got ${value.length})`);
  }
  return value.map(validItem);
}

/** At least one id; a repeated id counts once. */
export function validItemIds(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw invalid('itemIds', 'itemIds must name at least one item');
  }
  if (value.length > PR_ITEMS_MAX) {
    throw invalid('itemIds', `at most ${PR_ITEMS_MAX} items at a time (got ${value.length})`);
  }
  return [...new Set(value.map((id, i) => exactId(id, `itemIds[${i}]`)))];
}
