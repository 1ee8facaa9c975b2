import { sandboxRef } from './fields';
import { sandboxTool } from './sandbox-tool';

export const sandboxResumeTool = sandboxTool({
  name: 'sandbox_resume',
  title: 'Resume a sandbox',
  description:
    'Resumes a stopped sandbox with its files and processes as they were; its secrets are read again from its environment. Returns the sandbox.',
  input: { sandbox: sandboxRef() },
  scope: 'sandboxes:write',
  annotations: { readOnlyHint: false, idempotentHint: true },
  handle: (api, caller, args) => api.sandboxes.resume(caller, args.sandbox),
});
