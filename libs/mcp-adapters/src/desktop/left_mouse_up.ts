import { ACTS, defineDesktopTool, OK } from './desktop-tool';
import { coordinate, toPoint } from './fields';
import type { DesktopPort, ScreenSize } from './port';

/** The end of a drag started with left_mouse_down. */
export function leftMouseUpTool(screen: ScreenSize) {
  return defineDesktopTool({
    name: 'left_mouse_up',
    title: 'Release the left button',
    description: [
      'Release the left button pressed with left_mouse_down. coordinate: [x, y] to glide to',
      'first (with the button still held); without it, where the pointer is. Answers OK.',
    ].join(' '),
    input: { coordinate: coordinate('coordinate', screen).optional() },
    annotations: ACTS,
    route: 'box',
    handle: async (port: DesktopPort, args) => {
      await port.mouseUp(args.coordinate && toPoint(args.coordinate));
      return OK;
    },
  });
}
