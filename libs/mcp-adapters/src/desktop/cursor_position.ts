import { defineDesktopTool, LOOKS } from './desktop-tool';
import type { DesktopPort, Point } from './port';

export const cursorPositionInput = {};

/** Where the pointer is. */
export function cursorPositionTool() {
  return defineDesktopTool({
    name: 'cursor_position',
    title: 'Get the pointer position',
    description: 'Returns { "x": …, "y": … }, the pointer\'s current position in screen pixels.',
    input: cursorPositionInput,
    annotations: LOOKS,
    route: 'box',
    handle: (port: DesktopPort): Promise<Point> => port.cursor(),
  });
}
