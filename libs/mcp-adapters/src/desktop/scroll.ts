import { int, oneOf } from '../kit/fields';
import { heldModifiers } from './click-tool';
import { ACTS, defineDesktopTool, OK } from './desktop-tool';
import { coordinate, keys, SCROLL_AMOUNT_MAX, toPoint } from './fields';
import type { DesktopPort, ScreenSize } from './port';

export const SCROLL_AMOUNT_DEFAULT = 3;

/** Turns the mouse wheel at a point. */
export function scrollTool(screen: ScreenSize) {
  return defineDesktopTool({
    name: 'scroll',
    title: 'Scroll',
    description: [
      'Scroll the mouse wheel at a coordinate. coordinate: [x, y] to glide to first; without',
      'it, where the pointer is. scroll_direction: up, down, left or right. scroll_amount:',
      `wheel notches, 1–${SCROLL_AMOUNT_MAX} (default ${SCROLL_AMOUNT_DEFAULT}; a notch is about`,
      'three lines of text). text: modifier keys to hold while scrolling ("ctrl" zooms in most',
      'programs, "shift" scrolls sideways). Answers OK.',
    ].join(' '),
    input: {
      coordinate: coordinate('coordinate', screen).optional(),
      scroll_direction: oneOf('scroll_direction', ['up', 'down', 'left', 'right']),
      scroll_amount: int('scroll_amount', 1, SCROLL_AMOUNT_MAX).default(SCROLL_AMOUNT_DEFAULT),
      text: keys('text', true).optional(),
    },
    annotations: ACTS,
    route: 'box',
    handle: async (port: DesktopPort, args) => {
      const at = args.coordinate && toPoint(args.coordinate);
      await port.scroll(args.scroll_direction, args.scroll_amount, at, heldModifiers(args.text));
      return OK;
    },
  });
}
