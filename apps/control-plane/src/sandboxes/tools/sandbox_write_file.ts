import { z } from 'zod';
import { absolutePathField, sandboxRef } from './fields';
import { sandboxTool } from './sandbox-tool';

export const sandboxWriteFileTool = sandboxTool({
  name: 'sandbox_write_file',
  title: 'Write a file of a sandbox',
  description:
    'Writes one file, up to 64 MB, under /root, /workspace or /tmp. Creates missing directories and replaces an existing file. Pass exactly one of content and content_base64. Returns path and size_bytes.',
  input: {
    sandbox: sandboxRef(),
    path: absolutePathField('/root/app.py'),
    content: z.string().optional().describe('Text to write.'),
    content_base64: z.string().optional().describe('Bytes to write, base64-encoded.'),
  },
  scope: 'sandboxes:write',
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  handle: (api, caller, args) => api.work.writeFile(caller, args),
});
