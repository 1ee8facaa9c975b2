import { defineDesktopTool, LOOKS } from './desktop-tool';
import { region, screenText, toRegion } from './fields';
import type { DesktopPort, PngImage, ScreenSize } from './port';

/** A region of the screen scaled up to the full screen size, to read small text. */
export function zoomTool(screen: ScreenSize) {
  const { width, height } = screen;
  return defineDesktopTool({
    name: 'zoom',
    title: 'Zoom into a region',
    description: [
      'Capture a rectangular region of the screen and scale it up to the full screen size',
      `(a ${screenText(screen)} PNG), to read small text or inspect a detail. region is`,
      '[x1, y1, x2, y2] in screen pixels: the top-left corner, then the bottom-right one,',
      `exclusive (so [0, 0, ${width}, ${height}] is the whole screen). Each axis is scaled on`,
      'its own: a point (zx, zy) of the zoomed image is the screen point',
      `(x1 + zx·(x2 − x1)/${width}, y1 + zy·(y2 − y1)/${height}); the other tools take screen`,
      'coordinates, never zoomed ones.',
    ].join(' '),
    input: { region: region('region', screen) },
    annotations: LOOKS,
    route: 'box',
    handle: async (port: DesktopPort, args): Promise<PngImage> => ({
      png: await port.zoom(toRegion(args.region)),
    }),
  });
}
