import { ACTS, defineDesktopTool, OK } from './desktop-tool';
import { coordinate, keys, toPoint } from './fields';
import { parseKeys } from './keysyms';
import type { DesktopPort, KeyCombo, MouseButton, ScreenSize } from './port';

/** The optional arguments every click tool shares (the spec: "All five take the same parameter"). */
export function clickInput(screen: ScreenSize) {
  return {
    coordinate: coordinate('coordinate', screen).optional(),
    text: keys('text', true).optional(),
  };
}

export const CLICK_ARGS_TEXT = [
  'coordinate: [x, y] to glide to first (about 100–300 ms); without it, where the pointer is.',
  'text: modifier keys to hold during the click, joined by + ("shift", "ctrl+shift";',
  'ctrl, alt, shift, super, meta). Answers OK.',
].join(' ');

/** The held modifiers of a click tool's `text`, already checked by its schema. */
export function heldModifiers(text: string | undefined): KeyCombo | undefined {
  if (text === undefined) return undefined;
  const parsed = parseKeys(text, true);
  return 'presses' in parsed ? parsed.presses.flat() : undefined;
}

interface ClickSpec {
  name: string;
  title: string;
  /** What the click does, before the shared argument text. */
  what: string;
  button: MouseButton;
  count: number;
}

/** One of the five click tools: they differ only in the button and the number of clicks. */
export function clickTool(screen: ScreenSize, spec: ClickSpec) {
  return defineDesktopTool({
    name: spec.name,
    title: spec.title,
    description: `${spec.what} ${CLICK_ARGS_TEXT}`,
    input: clickInput(screen),
    annotations: ACTS,
    route: 'box',
    handle: async (port: DesktopPort, args) => {
      const at = args.coordinate && toPoint(args.coordinate);
      await port.click(spec.button, spec.count, at, heldModifiers(args.text));
      return OK;
    },
  });
}
