import { ID_MAX_LENGTH } from '../limits';
import { DomainError, ErrorCode } from './errors';

/**
 * The checks every aggregate's validation builds on. Commands arrive as JSON from outside, so
 * each helper checks the type too, and every refusal names its field and says why.
 * Not exported from the kernel's index: aggregates use them, the apps validate at their edge.
 */

/** C0/C1 controls and the Unicode line/paragraph separators: each would break a one-line text. */
export const CONTROL = /[\p{Cc}\p{Zl}\p{Zp}]/u;

/** With the `u` flag a pair is one code point, so this finds only an unpaired half. */
const LONE_SURROGATE = /\p{Cs}/u;

export function invalid(field: string, message: string): DomainError {
  return new DomainError(ErrorCode.ValidationFailed, message, { field });
}

/** Length in code points, so an emoji counts once. */
export function characters(value: string): number {
  return [...value].length;
}

/** At most `max` characters: a longer text keeps its first `max - 1` and ends with `…`. */
export function cut(value: string, max: number): string {
  const chars = [...value];
  return chars.length <= max ? value : `${chars.slice(0, max - 1).join('')}…`;
}

/**
 * Trimmed, non-empty, at most `max` characters (code points, so an emoji counts once), no
 * control characters.
 */
export function text(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string') throw invalid(field, `${field} must be a string`);
  const trimmed = value.trim();
  if (trimmed.length === 0) throw invalid(field, `${field} must not be empty`);
  const length = characters(trimmed);
  if (length > max) {
    throw invalid(field, `${field} must be at most ${max} characters (it has ${length})`);
  }
  if (CONTROL.test(trimmed)) {
    throw invalid(field, `${field} must not contain control characters such as newlines or tabs`);
  }
  return trimmed;
}

/** Ids are taken as given (no trimming): they name streams and documents. */
export function exactId(value: unknown, field: string): string {
  const checked = text(value, field, ID_MAX_LENGTH);
  if (checked !== value) throw invalid(field, `${field} must not start or end with whitespace`);
  // Half an emoji cannot be encoded (in a URL, in UTF-8), so an id holding one could not be used.
  if (LONE_SURROGATE.test(checked)) throw invalid(field, `${field} must be valid Unicode text`);
  return checked;
}

export function integer(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw invalid(field, `${field} must be a whole number (got ${JSON.stringify(value)})`);
  }
  if (value < min || value > max) {
    throw invalid(field, `${field} must be between ${min} and ${max} (got ${value})`);
  }
  return value;
}

export function bool(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') {
    throw invalid(field, `${field} must be true or false (got ${JSON.stringify(value)})`);
  }
  return value;
}

export function oneOf<T extends string>(value: unknown, field: string, allowed: readonly T[]): T {
  const found = allowed.find((a) => a === value);
  if (found === undefined) {
    throw invalid(
      field,
      `${field} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)})`,
    );
  }
  return found;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function object(value: unknown, field: string): Record<string, unknown> {
  if (!isPlainObject(value)) throw invalid(field, `${field} must be an object`);
  return value;
}

/** Refuses keys the shape does not have, so a misspelt field is not silently dropped. */
export function onlyKeys(value: Record<string, unknown>, field: string, known: readonly string[]) {
  const unknown = Object.keys(value).filter((k) => !known.includes(k));
  if (unknown.length > 0) {
    const where = field === '' ? '' : ` in ${field}`;
    throw invalid(
      field || unknown[0],
      `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}${where}; expected ${known.join(', ')}`,
    );
  }
}

/** An absolute POSIX path, without `.`/`..` segments, empty segments or control characters. */
export function absolutePath(value: unknown, field: string, max = 1024): string {
  if (typeof value !== 'string') throw invalid(field, `${field} must be a string`);
  if (!value.startsWith('/')) throw invalid(field, `${field} must be an absolute path`);
  if (characters(value) > max) throw invalid(field, `${field} must be at most ${max} characters`);
  if (CONTROL.test(value)) throw invalid(field, `${field} must not contain control characters`);
  const segments = value.split('/').slice(1);
  if (value !== '/' && segments.some((s) => s === '' || s === '.' || s === '..')) {
    throw invalid(field, `${field} must be normalised: no empty, "." or ".." segments`);
  }
  return value;
}

const ARGV_MAX_ITEMS = 100;
const ARG_MAX_LENGTH = 4096;

/**
 * An argv, kept exactly as given: arguments may hold newlines or be empty (`sh -c ''`), but
 * the program must be named and no argument can carry a NUL, which exec cannot pass.
 */
export function argv(value: unknown, field: string): string[] {
  if (!Array.isArray(value)) throw invalid(field, `${field} must be a list of strings`);
  if (value.length === 0 || value.length > ARGV_MAX_ITEMS) {
    throw invalid(field, `${field} must have 1–${ARGV_MAX_ITEMS} items (it has ${value.length})`);
  }
  const args = value.map((arg: unknown, i) => {
    if (typeof arg !== 'string') throw invalid(field, `${field}[${i}] must be a string`);
    if (characters(arg) > ARG_MAX_LENGTH) {
      throw invalid(field, `${field}[${i}] must be at most ${ARG_MAX_LENGTH} characters`);
    }
    if (arg.includes('\0')) throw invalid(field, `${field}[${i}] must not contain NUL`);
    return arg;
  });
  if (args[0].trim().length === 0) throw invalid(field, `${field}[0] must name a program`);
  return args;
}

/** Own keys only, so an id like `constructor` is never found on the prototype. */
export function has(record: object, key: string): boolean {
  return Object.hasOwn(record, key);
}
