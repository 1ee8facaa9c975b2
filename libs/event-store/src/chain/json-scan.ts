/**
 * The shape and leaves of a data's JSON text read straight from its UTF-8 bytes, as `verify`
 * gets them from SQLite: no decoding to a string, no JSON.parse, and a string without escapes
 * hashed from the bytes it already is. It writes what the walk over the parsed value writes
 * (commitment.ts), for text in the form JSON.stringify gives, which is what the store writes.
 *
 * Anything else makes it give up (false), and the caller parses the text instead: bytes that
 * are not UTF-8, whitespace, a key that is escaped, starts with a digit (JSON.parse puts
 * array-index keys first) or comes twice in one object, a bad number or literal, text after
 * the value. A raw control character inside a string (JSON.parse refuses it) is hashed as it
 * is: no store writes one, so such a leaf cannot match a commitment and the event fails
 * either way.
 */
import { isUtf8 } from 'node:buffer';
import type { DigestWriter } from './digest-writer';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NONE = Number.MAX_SAFE_INTEGER;
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');
const NULL = Buffer.from('null');

const EMPTY = Buffer.alloc(0);
// One scan at a time (see digest-writer.ts).
let src: Buffer = EMPTY;
let i = 0;
/** The first backslash at or after where the scan last looked for one (NONE: no more). */
let nextBackslash = -1;
/** Set by stringEnd: the string has escapes. */
let escaped = false;

/** Writes the shape and leaves of `data` into `w`; false when the caller must parse instead. */
export function scanShape(w: DigestWriter, data: Buffer): boolean {
  if (!isUtf8(data)) return false;
  src = data;
  i = 0;
  nextBackslash = -1;
  try {
    return value(w) && i === data.length;
  } finally {
    src = EMPTY;
  }
}

function value(w: DigestWriter): boolean {
  const c = src[i];
  if (c === QUOTE) return string(w);
  if (c === 0x7b) return object(w);
  if (c === 0x5b) return array(w);
  if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return number(w);
  if (c === 0x74) return literal(w, TRUE, 0x74);
  if (c === 0x66) return literal(w, FALSE, 0x66);
  if (c === 0x6e) return literal(w, NULL, 0x6e);
  return false;
}

function backslashFrom(p: number): number {
  if (nextBackslash < p) {
    nextBackslash = src.indexOf(BACKSLASH, p);
    if (nextBackslash < 0) nextBackslash = NONE;
  }
  return nextBackslash;
}

/** Where the string opening at `i` closes (its quote), or -1; sets `escaped`. */
function stringEnd(): number {
  let from = i + 1;
  escaped = false;
  for (;;) {
    const quote = src.indexOf(QUOTE, from);
    if (quote < 0) return -1;
    const slash = backslashFrom(from);
    if (slash > quote) return quote;
    escaped = true;
    // What a backslash escapes is never the closing quote (\uXXXX's digits are neither).
    from = slash + 2;
  }
}

function string(w: DigestWriter): boolean {
  const close = stringEnd();
  if (close < 0) return false;
  w.byte(0x73); // s
  if (escaped) {
    const decoded = decode(i, close);
    if (decoded === undefined) return false;
    w.leaf(decoded, 0, 0);
  } else {
    w.leaf(src, i + 1, close);
  }
  i = close + 1;
  return true;
}

/** The escaped string literal from `open` to `close` (its quotes), or undefined if bad. */
function decode(open: number, close: number): string | undefined {
  try {
    return JSON.parse(src.toString('utf8', open, close + 1)) as string;
  } catch {
    return undefined;
  }
}

function object(w: DigestWriter): boolean {
  w.byte(0x7b); // {
  const slot = w.slot();
  i++;
  if (src[i] === 0x7d) {
    i++;
    w.fill(slot, 0);
    return true;
  }
  const keys: string[] = [];
  for (;;) {
    if (src[i] !== QUOTE) return false;
    const close = stringEnd();
    const first = src[i + 1];
    if (close < 0 || escaped || (first >= 0x30 && first <= 0x39)) return false;
    const key = src.toString('latin1', i + 1, close);
    if (keys.includes(key)) return false;
    keys.push(key);
    w.bytes(src, i + 1, close);
    i = close + 1;
    if (src[i] !== 0x3a) return false;
    i++;
    if (!value(w)) return false;
    const c = src[i++];
    if (c === 0x7d) break;
    if (c !== 0x2c) return false;
  }
  w.fill(slot, keys.length);
  return true;
}

function array(w: DigestWriter): boolean {
  w.byte(0x5b); // [
  const slot = w.slot();
  i++;
  let n = 0;
  if (src[i] === 0x5d) {
    i++;
    w.fill(slot, 0);
    return true;
  }
  for (;;) {
    if (!value(w)) return false;
    n++;
    const c = src[i++];
    if (c === 0x5d) break;
    if (c !== 0x2c) return false;
  }
  w.fill(slot, n);
  return true;
}

function number(w: DigestWriter): boolean {
  const start = i;
  for (;;) {
    const c = src[i];
    const digit = c >= 0x30 && c <= 0x39;
    // . + - e E
    if (digit || c === 0x2e || c === 0x2b || c === 0x2d || c === 0x65 || c === 0x45) i++;
    else break;
  }
  const token = src.toString('latin1', start, i);
  const canonical = String(Number(token));
  w.byte(0x64); // d
  if (canonical === token) {
    w.bytes(src, start, i);
    return true;
  }
  if (!NUMBER.test(token)) return false;
  w.text(canonical);
  return true;
}

function literal(w: DigestWriter, word: Buffer, tag: number): boolean {
  const end = i + word.length;
  if (end > src.length || src.compare(word, 0, word.length, i, end) !== 0) return false;
  w.byte(tag);
  i += word.length;
  return true;
}
