import { ACTS, defineDesktopTool, OK } from './desktop-tool';
import { coordinate, toPoint } from './fields';
import type { DesktopPort, ScreenSize } from './port';

/** Press at one point, glide to another with the button held, release. */
export function leftClickDragTool(screen: ScreenSize) {
  return defineDesktopTool({
    name: 'left_click_drag',
    title: 'Drag with the left button',
    description: [
      'Press the left button at start_coordinate [x, y], move to coordinate [x, y], release.',
      'The move between the two is a glide (about 100–300 ms), so drop targets that watch the',
      'pointer travel see it. For drags that need something in between, use left_mouse_down,',
      'mouse_move and left_mouse_up. Answers OK.',
    ].join(' '),
    input: {
      start_coordinate: coordinate('start_coordinate', screen),
      coordinate: coordinate('coordinate', screen),
    },
    annotations: ACTS,
    route: 'box',
    handle: async (port: DesktopPort, args) => {
      await port.drag(toPoint(args.start_coordinate), toPoint(args.coordinate));
      return OK;
    },
  });
}
