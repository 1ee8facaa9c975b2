import { clickTool } from './click-tool';
import type { ScreenSize } from './port';

/** One of the five click tools (click-tool.ts); the spec's name is the file name. */
export function rightClickTool(screen: ScreenSize) {
  return clickTool(screen, {
    name: 'right_click',
    title: 'Right-click',
    what: 'Click the right button (context menus).',
    button: 'right',
    count: 1,
  });
}
