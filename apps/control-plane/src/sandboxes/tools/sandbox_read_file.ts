import { absolutePathField, sandboxRef } from './fields';
import { sandboxTool } from './sandbox-tool';

export const sandboxReadFileTool = sandboxTool({
  name: 'sandbox_read_file',
  title: 'Read a file of a sandbox',
  description:
    'Reads one file, up to 64 MB. Returns path, encoding and content: encoding is utf-8 when the file is valid UTF-8 text, and base64 otherwise. File contents are not masked.',
  input: { sandbox: sandboxRef(), path: absolutePathField('/root/out.json') },
  scope: 'sandboxes:read',
  annotations: { readOnlyHint: true },
  handle: (api, caller, args) => api.work.readFile(caller, args),
});
