import { defineDesktopTool, LOOKS } from './desktop-tool';
import { screenText } from './fields';
import type { DesktopPort, PngImage, ScreenSize } from './port';

export const screenshotInput = {};

/** The whole screen; its description is where the agent learns the screen size. */
export function screenshotTool(screen: ScreenSize) {
  const { width, height } = screen;
  return defineDesktopTool({
    name: 'screenshot',
    title: 'Take a screenshot',
    description: [
      `Take a screenshot of the whole desktop: a ${screenText(screen)} PNG. The screen is`,
      `${width}×${height} pixels; every coordinate the desktop tools take is [x, y] in whole`,
      `pixels from its top-left corner, x from 0 to ${width - 1}, y from 0 to ${height - 1}.`,
      'Call it before acting and after any action whose result you need to see: the other',
      'tools only answer OK.',
    ].join(' '),
    input: screenshotInput,
    annotations: LOOKS,
    route: 'box',
    handle: async (port: DesktopPort): Promise<PngImage> => ({ png: await port.screenshot() }),
  });
}
