import { z } from 'zod';
import { openUrl } from '../desktop/desktop-actions';
import { sandboxRef } from './fields';
import { sandboxTool } from './sandbox-tool';

export const sandboxOpenUrlTool = sandboxTool({
  name: 'sandbox_open_url',
  title: "Open URLs in a sandbox's browser",
  description:
    'Opens each URL as a tab in the desktop\'s Chromium. Returns {"done": "open"}. Fails with no_desktop when the desktop is not running.',
  input: {
    sandbox: sandboxRef(),
    urls: z
      .array(z.string().min(1).max(8192))
      .min(1)
      .describe('Required. At least one (up to 20).'),
  },
  scope: 'sandboxes:write',
  annotations: { readOnlyHint: false, destructiveHint: false },
  handle: (api, caller, args) => openUrl(api.desktop, caller, args),
});
