import { defineDesktopTool, MOVES, OK } from './desktop-tool';
import { coordinate, toPoint } from './fields';
import type { DesktopPort, ScreenSize } from './port';

/** Moves the pointer without clicking (hover menus, tooltips, a drag between mouse down/up). */
export function mouseMoveTool(screen: ScreenSize) {
  return defineDesktopTool({
    name: 'mouse_move',
    title: 'Move the pointer',
    description: [
      'Move the pointer to coordinate [x, y] without clicking. It glides there (about 100–300',
      'ms), so hover effects see it pass. Answers OK.',
    ].join(' '),
    input: { coordinate: coordinate('coordinate', screen) },
    annotations: MOVES,
    route: 'box',
    handle: async (port: DesktopPort, args) => {
      await port.move(toPoint(args.coordinate));
      return OK;
    },
  });
}
