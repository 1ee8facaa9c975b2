import { ErrorCode } from '@sessionboxer/domain';

/**
 * The one policy for JSON that arrives from outside: every HTTP body (json-body.ts), every
 * frame of the web UI's socket and of the boxes' sockets (box-ws.adapter.ts). It runs before
 * any validation, because the validators walk a value recursively: a deep enough value would
 * overflow their stack (a 500) before they could refuse it.
 */
export const JSON_MAX_BYTES = 1024 * 1024;
/** Arrays and objects inside each other; real bodies and frames use fewer than 10. */
export const JSON_MAX_DEPTH = 64;

/** Why a JSON text or value is refused: 413 when it is too large, else 400. */
export interface JsonRefusal {
  status: 400 | 413;
  code: ErrorCode.ValidationFailed;
  message: string;
  /** The field at fault (dotted path, `[i]` for items), when one is. */
  field?: string;
}

/** With the `u` flag a pair is one code point, so this finds only an unpaired half. */
const LONE_SURROGATE = /\p{Cs}/u;
const wellFormed = (s: string) => !LONE_SURROGATE.test(s);

const refusal = (message: string, field?: string, status: 400 | 413 = 400): JsonRefusal => ({
  status,
  code: ErrorCode.ValidationFailed,
  message,
  ...(field === undefined ? {} : { field }),
});

function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent === '' ? key : `${parent}.${key}`;
}

/**
 * Null, or why a parsed value is refused: arrays/objects nested deeper than JSON_MAX_DEPTH, or
 * a string (value or key) that is not well-formed Unicode (half a surrogate pair cannot be
 * stored, encoded in UTF-8 or shown). Walks with an explicit stack, so no value, however deep,
 * can overflow the call stack here.
 */
export function jsonValueProblem(value: unknown, what = 'the body'): JsonRefusal | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop() as { value: unknown; path: string; depth: number };
    const v = item.value;
    if (typeof v === 'string') {
      if (!wellFormed(v)) return illFormed(item.path, what);
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (item.depth >= JSON_MAX_DEPTH) {
      const top = item.path.split(/[.[]/)[0];
      return refusal(
        `${what} nests arrays and objects more than ${JSON_MAX_DEPTH} levels deep${top ? ` (in ${top})` : ''}; the limit is ${JSON_MAX_DEPTH}`,
        top || undefined,
      );
    }
    const entries: [string | number, unknown][] = Array.isArray(v)
      ? v.map((x, i): [number, unknown] => [i, x])
      : Object.entries(v);
    for (const [key, child] of entries) {
      const path = childPath(item.path, key);
      if (typeof key === 'string' && !wellFormed(key)) return illFormed(path, what, true);
      stack.push({ value: child, path, depth: item.depth + 1 });
    }
  }
  return null;
}

function illFormed(path: string, what: string, isKey = false): JsonRefusal {
  const field = path === '' ? undefined : path.replace(/\p{Cs}/gu, '\uFFFD');
  const subject = isKey ? `a field name in ${what}` : (field ?? what);
  return refusal(
    `${subject} must be well-formed Unicode text: it holds half of a surrogate pair (such as \\ud800 alone)`,
    field,
  );
}

/** The refusal for a text of `bytes` bytes, or null when it is within JSON_MAX_BYTES. */
export function jsonSizeProblem(bytes: number, what = 'a frame'): JsonRefusal | null {
  if (bytes <= JSON_MAX_BYTES) return null;
  return refusal(
    `${what} is larger than the limit of ${JSON_MAX_BYTES} bytes (it has ${bytes})`,
    undefined,
    413,
  );
}

export type ParsedJson = { ok: true; value: unknown } | { ok: false; refusal: JsonRefusal };

/** A socket frame's text, checked in order: its size, that it is JSON, then its value. */
export function parseJsonFrame(raw: string | Buffer): ParsedJson {
  const bytes = typeof raw === 'string' ? Buffer.byteLength(raw) : raw.length;
  const tooLarge = jsonSizeProblem(bytes);
  if (tooLarge) return { ok: false, refusal: tooLarge };
  let value: unknown;
  try {
    // JSON.parse itself does not recurse on the call stack, whatever the nesting.
    value = JSON.parse(typeof raw === 'string' ? raw : raw.toString('utf8'));
  } catch (e) {
    const why = e instanceof Error ? e.message : 'unreadable';
    return { ok: false, refusal: refusal(`a frame must be JSON {event, data}: ${why}`) };
  }
  const problem = jsonValueProblem(value, 'a frame');
  return problem ? { ok: false, refusal: problem } : { ok: true, value };
}
