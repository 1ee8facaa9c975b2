import { clickTool } from './click-tool';
import type { ScreenSize } from './port';

/** One of the five click tools (click-tool.ts); the spec's name is the file name. */
export function leftClickTool(screen: ScreenSize) {
  return clickTool(screen, {
    name: 'left_click',
    title: 'Left-click',
    what: 'Click the left button.',
    button: 'left',
    count: 1,
  });
}
