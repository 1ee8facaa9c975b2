/**
 * json-scan.ts's scan over JSON text as a JavaScript string, which is what a new event's data
 * is when it is written (JSON.stringify's result) and what SQLite hands `verify` for a schema-3
 * row: no UTF-8 copy of the whole text, no validity pass, and each string without escapes
 * committed as the substring it is (encoded once, straight behind its salt). It writes what
 * the walk over the parsed value writes (commitment.ts) and gives up (false) on what json-scan.ts
 * gives up on; a lone surrogate needs no pass of its own: it is encoded as U+FFFD wherever it
 * is written, as the walk over JSON.parse's value encodes it, and anywhere else it is no JSON.
 */
import type { DigestWriter } from './digest-writer';

const QUOTE = 0x22;
const NONE = Number.MAX_SAFE_INTEGER;
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

// One scan at a time (see digest-writer.ts).
let src = '';
let i = 0;
/** The first backslash at or after where the scan last looked for one (NONE: no more). */
let nextBackslash = -1;
/** Set by stringEnd: the string has escapes. */
let escaped = false;

/** Writes the shape and leaves of `data` into `w`; false when the caller must parse instead. */
export function scanText(w: DigestWriter, data: string): boolean {
  src = data;
  i = 0;
  nextBackslash = -1;
  try {
    return value(w) && i === data.length;
  } finally {
    src = '';
  }
}

function value(w: DigestWriter): boolean {
  const c = src.charCodeAt(i);
  if (c === QUOTE) return string(w);
  if (c === 0x7b) return object(w);
  if (c === 0x5b) return array(w);
  if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return number(w);
  if (c === 0x74) return literal(w, 'true', 0x74);
  if (c === 0x66) return literal(w, 'false', 0x66);
  if (c === 0x6e) return literal(w, 'null', 0x6e);
  return false;
}

function backslashFrom(p: number): number {
  if (nextBackslash < p) {
    nextBackslash = src.indexOf('\\', p);
    if (nextBackslash < 0) nextBackslash = NONE;
  }
  return nextBackslash;
}

/** Where the string opening at `i` closes (its quote), or -1; sets `escaped`. */
function stringEnd(): number {
  let from = i + 1;
  escaped = false;
  for (;;) {
    const quote = src.indexOf('"', from);
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
    w.leaf(src.substring(i + 1, close), 0, 0);
  }
  i = close + 1;
  return true;
}

/** The escaped string literal from `open` to `close` (its quotes), or undefined if bad. */
function decode(open: number, close: number): string | undefined {
  try {
    return JSON.parse(src.substring(open, close + 1)) as string;
  } catch {
    return undefined;
  }
}

function object(w: DigestWriter): boolean {
  w.byte(0x7b); // {
  const slot = w.slot();
  i++;
  if (src.charCodeAt(i) === 0x7d) {
    i++;
    w.fill(slot, 0);
    return true;
  }
  const keys: string[] = [];
  for (;;) {
    if (src.charCodeAt(i) !== QUOTE) return false;
    const close = stringEnd();
    const first = src.charCodeAt(i + 1);
    if (close < 0 || escaped || (first >= 0x30 && first <= 0x39)) return false;
    const key = src.substring(i + 1, close);
    if (keys.includes(key)) return false;
    keys.push(key);
    w.text(key);
    i = close + 1;
    if (src.charCodeAt(i) !== 0x3a) return false;
    i++;
    if (!value(w)) return false;
    const c = src.charCodeAt(i++);
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
  if (src.charCodeAt(i) === 0x5d) {
    i++;
    w.fill(slot, 0);
    return true;
  }
  for (;;) {
    if (!value(w)) return false;
    n++;
    const c = src.charCodeAt(i++);
    if (c === 0x5d) break;
    if (c !== 0x2c) return false;
  }
  w.fill(slot, n);
  return true;
}

function number(w: DigestWriter): boolean {
  const start = i;
  for (;;) {
    const c = src.charCodeAt(i);
    const digit = c >= 0x30 && c <= 0x39;
    // . + - e E
    if (digit || c === 0x2e || c === 0x2b || c === 0x2d || c === 0x65 || c === 0x45) i++;
    else break;
  }
  const token = src.substring(start, i);
  const canonical = String(Number(token));
  w.byte(0x64); // d
  if (canonical === token) {
    w.text(token);
    return true;
  }
  if (!NUMBER.test(token)) return false;
  w.text(canonical);
  return true;
}

function literal(w: DigestWriter, word: string, tag: number): boolean {
  if (!src.startsWith(word, i)) return false;
  w.byte(tag);
  i += word.length;
  return true;
}
