import { z } from 'zod';
import { screenshot } from '../desktop/desktop-actions';
import { sandboxRef } from './fields';
import { sandboxTool } from './sandbox-tool';

export const sandboxScreenshotTool = sandboxTool({
  name: 'sandbox_screenshot',
  title: "A sandbox's screen as a PNG",
  description:
    'Captures the screen, or part of it. Returns a PNG image and a text item with width and height. Without region, positions for sandbox_input are pixels in this image, from the top left. With region, they are not: convert them back to screen pixels.',
  input: {
    sandbox: sandboxRef(),
    region: z
      .array(z.number().int().min(0))
      .length(4)
      .optional()
      .describe(
        '[x0, y0, x1, y1]: the top-left and bottom-right corners of the part to capture, in screen pixels (x1 and y1 exclusive: [0, 0, 1280, 800] is a whole 1280x800 screen). The image is that part scaled up to fit the screen size, keeping its aspect ratio. Default the whole screen.',
      ),
  },
  scope: 'sandboxes:read',
  annotations: { readOnlyHint: true },
  handle: (api, caller, args) => screenshot(api.desktop, caller, args),
});
