import { ACTS, defineDesktopTool, OK } from './desktop-tool';
import { coordinate, toPoint } from './fields';
import type { DesktopPort, ScreenSize } from './port';

/** The first half of a drag that needs something in between. */
export function leftMouseDownTool(screen: ScreenSize) {
  return defineDesktopTool({
    name: 'left_mouse_down',
    title: 'Press the left button',
    description: [
      'Press and hold the left button, for drags that need something in between (mouse_move',
      'through several points, a key while dragging); release it with left_mouse_up.',
      'coordinate: [x, y] to glide to first; without it, where the pointer is. Answers OK.',
    ].join(' '),
    input: { coordinate: coordinate('coordinate', screen).optional() },
    annotations: ACTS,
    route: 'box',
    handle: async (port: DesktopPort, args) => {
      await port.mouseDown(args.coordinate && toPoint(args.coordinate));
      return OK;
    },
  });
}
