import { clickTool } from './click-tool';
import type { ScreenSize } from './port';

/** One of the five click tools (click-tool.ts); the spec's name is the file name. */
export function middleClickTool(screen: ScreenSize) {
  return clickTool(screen, {
    name: 'middle_click',
    title: 'Middle-click',
    what: 'Click the middle button (paste the primary selection on X, open a link in a new tab).',
    button: 'middle',
    count: 1,
  });
}
