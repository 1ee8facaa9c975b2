import { nearestName, type Candidate } from './nearest-name';
import type { KeyCombo } from './port';

/**
 * The key names the key tools accept: X keysym names as xdotool takes them. xdotool itself
 * ignores a name it does not know (it prints a warning and exits 0), so "Enter" would look
 * pressed to the agent while nothing happened; every name is checked here instead.
 */

/** xdotool's own aliases for the modifiers; it matches these ignoring case. */
export const MODIFIER_ALIASES = ['ctrl', 'control', 'alt', 'shift', 'super', 'meta'] as const;

const sided = (names: string[]) => names.flatMap((n) => [`${n}_L`, `${n}_R`]);

export const MODIFIER_KEYSYMS: readonly string[] = [
  ...sided(['Shift', 'Control', 'Alt', 'Super', 'Meta', 'Hyper']),
  'ISO_Level3_Shift',
  'Mode_switch',
];

const range = (prefix: string, from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `${prefix}${from + i}`);
const chars = (from: string, to: string) =>
  Array.from({ length: to.charCodeAt(0) - from.charCodeAt(0) + 1 }, (_, i) =>
    String.fromCharCode(from.charCodeAt(0) + i),
  );

/** Keysym names of the printable ASCII punctuation, by character (for suggestions too). */
export const PUNCTUATION: Readonly<Record<string, string>> = {
  ' ': 'space', '!': 'exclam', '"': 'quotedbl', '#': 'numbersign', $: 'dollar', '%': 'percent',
  '&': 'ampersand', "'": 'apostrophe', '(': 'parenleft', ')': 'parenright', '*': 'asterisk',
  '+': 'plus', ',': 'comma', '-': 'minus', '.': 'period', '/': 'slash', ':': 'colon',
  ';': 'semicolon', '<': 'less', '=': 'equal', '>': 'greater', '?': 'question', '@': 'at',
  '[': 'bracketleft', '\\': 'backslash', ']': 'bracketright', '^': 'asciicircum',
  _: 'underscore', '`': 'grave', '{': 'braceleft', '|': 'bar', '}': 'braceright',
  '~': 'asciitilde',
}; // prettier-ignore

const NAVIGATION_AND_EDITING = [
  'Return', 'Escape', 'Tab', 'ISO_Left_Tab', 'BackSpace', 'Delete', 'Insert', 'Home', 'End',
  'Page_Up', 'Page_Down', 'Prior', 'Next', 'Up', 'Down', 'Left', 'Right', 'Begin', 'Print',
  'Pause', 'Break', 'Menu', 'Sys_Req', 'Cancel', 'Clear', 'Linefeed', 'Find', 'Help', 'Undo',
  'Redo', 'Execute', 'Select', 'Caps_Lock', 'Num_Lock', 'Scroll_Lock',
]; // prettier-ignore

const KEYPAD = [
  ...range('KP_', 0, 9),
  ...['Enter', 'Add', 'Subtract', 'Multiply', 'Divide', 'Decimal', 'Separator', 'Equal'],
  ...['Space', 'Tab', 'Home', 'End', 'Up', 'Down', 'Left', 'Right', 'Page_Up', 'Page_Down'],
  ...['Prior', 'Next', 'Insert', 'Delete', 'Begin'],
].map((k) => (k.startsWith('KP_') ? k : `KP_${k}`));

const MEDIA = [
  'AudioMute', 'AudioLowerVolume', 'AudioRaiseVolume', 'AudioMicMute', 'AudioPlay',
  'AudioPause', 'AudioStop', 'AudioPrev', 'AudioNext', 'Back', 'Forward', 'Refresh', 'Reload',
  'Stop', 'Search', 'HomePage', 'Mail', 'Calculator', 'Explorer', 'Favorites', 'Copy', 'Cut',
  'Paste', 'Open', 'Close', 'Save', 'New', 'Eject', 'ZoomIn', 'ZoomOut', 'MonBrightnessUp',
  'MonBrightnessDown', 'KbdBrightnessUp', 'KbdBrightnessDown', 'PowerOff', 'Sleep', 'WakeUp',
].map((k) => `XF86${k}`); // prettier-ignore

export const KEYSYMS: ReadonlySet<string> = new Set([
  ...chars('a', 'z'),
  ...chars('A', 'Z'),
  ...chars('0', '9'),
  ...range('F', 1, 35),
  ...Object.values(PUNCTUATION),
  'quoteright',
  'quoteleft',
  ...NAVIGATION_AND_EDITING,
  ...MODIFIER_KEYSYMS,
  ...KEYPAD,
  ...MEDIA,
]);

/** Unicode keysyms as xdotool takes them: U20AC is €. */
const UNICODE_KEYSYM = /^U[0-9A-Fa-f]{4,6}$/;

/** Names agents reach for that are not keysyms, and the keysym they mean. */
const ALIASES: Readonly<Record<string, string>> = {
  enter: 'Return', esc: 'Escape', del: 'Delete', ins: 'Insert', pgup: 'Page_Up',
  pageup: 'Page_Up', pgdn: 'Page_Down', pagedown: 'Page_Down', backspace: 'BackSpace',
  arrowup: 'Up', arrowdown: 'Down', arrowleft: 'Left', arrowright: 'Right', spacebar: 'space',
  cmd: 'super', command: 'super', win: 'super', windows: 'super', option: 'alt', opt: 'alt',
  caps: 'Caps_Lock', capslock: 'Caps_Lock', printscreen: 'Print', prtsc: 'Print',
}; // prettier-ignore

export function isModifier(name: string): boolean {
  return (
    (MODIFIER_ALIASES as readonly string[]).includes(name.toLowerCase()) ||
    MODIFIER_KEYSYMS.includes(name)
  );
}

export function isKeyName(name: string): boolean {
  return KEYSYMS.has(name) || UNICODE_KEYSYM.test(name) || isModifier(name);
}

/** A key name as compared for suggestions: case, underscores, spaces and dashes ignored. */
const fold = (name: string) => name.toLowerCase().replace(/[_\s-]/g, '');

/**
 * Every name a suggestion can be, as written folded: the keysyms (single characters are
 * always right, so never suggested), the modifier aliases, and the names agents reach for.
 * The common keys come first, so a tie suggests them.
 */
const SUGGESTIONS: readonly Candidate[] = [
  ...NAVIGATION_AND_EDITING.map((k): Candidate => [fold(k), k]),
  ...MODIFIER_ALIASES.map((k): Candidate => [k, k]),
  ...Object.entries(ALIASES),
  ...[...KEYSYMS].filter((k) => k.length > 1).map((k): Candidate => [fold(k), k]),
];

/** The keysym the agent probably meant by an unknown `name`: an alias, or the nearest name. */
export function suggestKey(name: string): string | undefined {
  if (PUNCTUATION[name]) return PUNCTUATION[name];
  const folded = fold(name);
  if (ALIASES[folded]) return ALIASES[folded];
  return nearestName(folded, SUGGESTIONS);
}

/** Why `name` is not a key, naming the key and, when it can, the right name. */
function unknownKey(name: string): string {
  const hint = suggestKey(name);
  return hint
    ? `unknown key ${JSON.stringify(name)} (did you mean ${hint}?)`
    : `unknown key ${JSON.stringify(name)} (use X keysym names: Return, Escape, ctrl, a, F5, slash…)`;
}

export type KeyParse = { presses: KeyCombo[] } | { error: string };

/**
 * "ctrl+a Delete" → [["ctrl", "a"], ["Delete"]]: presses separated by spaces, the keys of one
 * press joined by "+". `modifiersOnly` is for the click tools' held keys.
 */
export function parseKeys(text: string, modifiersOnly = false): KeyParse {
  const words = text.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return { error: 'names no key' };
  const presses: KeyCombo[] = [];
  for (const word of words) {
    const keys = word.split('+');
    if (keys.some((k) => k === '')) {
      return { error: `${JSON.stringify(word)} has an empty key name (write + as "plus")` };
    }
    const bad = keys.find((k) => !isKeyName(k));
    if (bad !== undefined) return { error: unknownKey(bad) };
    const plain = keys.find((k) => !isModifier(k));
    if (modifiersOnly && plain !== undefined) {
      return {
        error: `${JSON.stringify(plain)} is not a modifier (ctrl, alt, shift, super, meta)`,
      };
    }
    presses.push(keys);
  }
  return { presses };
}
