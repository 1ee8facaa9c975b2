import { z } from 'zod';
import { sandboxRef } from './fields';
import { sandboxTool } from './sandbox-tool';

export const sandboxDesktopTool = sandboxTool({
  name: 'sandbox_desktop',
  title: "Start, stop or check a sandbox's desktop",
  description:
    "Starts, stops or checks the desktop with Chromium. Starting takes a few seconds and costs nothing beyond the sandbox. Each open page uses 250 to 350 MB of memory. Returns running; while the desktop runs also size, display, vnc_port, devtools, browser and watch. Chromium's DevTools protocol is at http://127.0.0.1:9222 inside the sandbox; programs started with sandbox_exec while the desktop runs open on the screen.",
  input: {
    sandbox: sandboxRef(),
    action: z
      .enum(['start', 'stop', 'status'])
      .optional()
      .describe('start, stop or status. Default start.'),
    resolution: z
      .string()
      .max(20)
      .optional()
      .describe('Screen size for start, for example 1920x1080. Default 1280x800.'),
  },
  scope: 'sandboxes:write',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  handle: (api, caller, args) => api.desktop.desktop(caller, args),
});
