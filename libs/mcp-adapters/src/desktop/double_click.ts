import { clickTool } from './click-tool';
import type { ScreenSize } from './port';

/** One of the five click tools (click-tool.ts); the spec's name is the file name. */
export function doubleClickTool(screen: ScreenSize) {
  return clickTool(screen, {
    name: 'double_click',
    title: 'Double-click',
    what: 'Double-click the left button (select a word, open a file).',
    button: 'left',
    count: 2,
  });
}
