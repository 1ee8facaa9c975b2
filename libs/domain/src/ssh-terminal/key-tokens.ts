import { invalid } from '../kernel/validation';

/**
 * The key tokens of shellwatch_send_keys and the characters a terminal (xterm, in normal
 * cursor mode) sends for each. `text:` is taken verbatim; `ctrl:<letter>` is the letter's
 * control code (ctrl:c is 0x03); `alt:<letter>` is ESC and the letter, as xterm's
 * metaSendsEscape sends it.
 */
export const NAMED_KEYS: Readonly<Record<string, string>> = {
  enter: '\r',
  tab: '\t',
  escape: '\x1b',
  backspace: '\x7f',
  space: ' ',
  up: '\x1b[A',
  down: '\x1b[B',
  right: '\x1b[C',
  left: '\x1b[D',
  home: '\x1b[H',
  end: '\x1b[F',
  pageup: '\x1b[5~',
  pagedown: '\x1b[6~',
  delete: '\x1b[3~',
  insert: '\x1b[2~',
  f1: '\x1bOP',
  f2: '\x1bOQ',
  f3: '\x1bOR',
  f4: '\x1bOS',
  f5: '\x1b[15~',
  f6: '\x1b[17~',
  f7: '\x1b[18~',
  f8: '\x1b[19~',
  f9: '\x1b[20~',
  f10: '\x1b[21~',
  f11: '\x1b[23~',
  f12: '\x1b[24~',
};

/** Tokens per call, and characters of one call's text. */
export const KEY_TOKENS_MAX = 1000;
export const KEY_TEXT_MAX_LENGTH = 65536;

const LETTER = /^[A-Za-z]$/;

function one(token: string): string | null {
  if (token.startsWith('text:')) return token.slice('text:'.length);
  if (Object.hasOwn(NAMED_KEYS, token)) return NAMED_KEYS[token];
  const [modifier, key] = [
    token.slice(0, token.indexOf(':') + 1),
    token.slice(token.indexOf(':') + 1),
  ];
  if (!LETTER.test(key)) return null;
  if (modifier === 'ctrl:') return String.fromCharCode(key.toLowerCase().charCodeAt(0) & 0x1f);
  if (modifier === 'alt:') return `\x1b${key}`;
  return null;
}

/**
 * The characters the whole list sends, or a refusal naming every unknown token: a call is
 * all or nothing, so nothing of a refused one reaches the terminal.
 */
export function keyTokensToText(tokens: unknown): string {
  if (!Array.isArray(tokens) || tokens.length === 0 || tokens.length > KEY_TOKENS_MAX) {
    throw invalid('keys', `keys must be a list of 1–${KEY_TOKENS_MAX} key tokens`);
  }
  const parts: string[] = [];
  const unknown: string[] = [];
  for (const token of tokens) {
    const chars = typeof token === 'string' ? one(token) : null;
    if (chars === null) unknown.push(JSON.stringify(token));
    else parts.push(chars);
  }
  if (unknown.length > 0) {
    throw invalid(
      'keys',
      `unknown key token${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}: use text:<literal>, ${Object.keys(NAMED_KEYS).join(', ')}, or ctrl:/alt: with a letter (ctrl:c); nothing was sent`,
    );
  }
  const all = parts.join('');
  if (all.length > KEY_TEXT_MAX_LENGTH) {
    throw invalid(
      'keys',
      `keys send at most ${KEY_TEXT_MAX_LENGTH} characters a call (this has ${all.length}); nothing was sent`,
    );
  }
  return all;
}
