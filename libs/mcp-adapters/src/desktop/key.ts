import { ACTS, defineDesktopTool, OK } from './desktop-tool';
import { keys } from './fields';
import { parseKeys } from './keysyms';
import type { DesktopPort, KeyCombo } from './port';

/** The presses of a `text` the schema already accepted. */
export function pressesOf(text: string): KeyCombo[] {
  const parsed = parseKeys(text);
  if ('error' in parsed) throw new Error(`text: ${parsed.error}`);
  return parsed.presses;
}

export const KEY_NAMES_TEXT = [
  'Keys are named the way xdotool names them (X keysyms): Return, Escape, Tab, BackSpace,',
  'Delete, Home, End, Page_Up, Page_Down, Up, Down, Left, Right, space, F1–F35, a–z, 0–9,',
  'slash, period, comma, minus, plus…; modifiers ctrl, alt, shift, super, meta. A',
  'combination joins keys with + ("ctrl+shift+t"); several presses in a row are separated by',
  'spaces ("ctrl+a Delete"). An unknown name is refused, with the right name when it is clear',
  '("Enter" is Return, "esc" is Escape).',
].join(' ');

/** Presses a key or a combination, or several in a row. */
export function keyTool() {
  return defineDesktopTool({
    name: 'key',
    title: 'Press keys',
    description: `Press a key or a key combination at the current focus. text: the keys. ${KEY_NAMES_TEXT} Answers OK.`,
    input: { text: keys('text') },
    annotations: ACTS,
    route: 'box',
    handle: async (port: DesktopPort, args) => {
      await port.key(pressesOf(args.text));
      return OK;
    },
  });
}
