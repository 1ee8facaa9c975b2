import { defineDesktopTool, LOOKS } from './desktop-tool';
import { SECONDS_MAX, seconds } from './fields';
import type { DesktopPort, PngImage } from './port';

/** Lets a page load or an animation finish, then shows the screen. */
export function waitTool() {
  return defineDesktopTool({
    name: 'wait',
    title: 'Wait, then take a screenshot',
    description: [
      'Wait for a page to load or an animation to finish, then take a screenshot. duration:',
      `seconds, 0–${SECONDS_MAX}. Returns a PNG of the screen after the wait.`,
    ].join(' '),
    input: { duration: seconds('duration', false) },
    annotations: LOOKS,
    route: 'box',
    handle: async (port: DesktopPort, args): Promise<PngImage> => {
      await port.wait(args.duration);
      return { png: await port.screenshot() };
    },
  });
}
