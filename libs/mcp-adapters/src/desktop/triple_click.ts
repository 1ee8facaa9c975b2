import { clickTool } from './click-tool';
import type { ScreenSize } from './port';

/** One of the five click tools (click-tool.ts); the spec's name is the file name. */
export function tripleClickTool(screen: ScreenSize) {
  return clickTool(screen, {
    name: 'triple_click',
    title: 'Triple-click',
    what: 'Triple-click the left button (selects a line or paragraph in most programs).',
    button: 'left',
    count: 3,
  });
}
