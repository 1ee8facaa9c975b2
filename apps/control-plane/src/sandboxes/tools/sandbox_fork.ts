import { z } from 'zod';
import { sandboxRef } from './fields';
import { sandboxTool } from './sandbox-tool';

export const sandboxForkTool = sandboxTool({
  name: 'sandbox_fork',
  title: 'Fork a sandbox',
  description:
    "Creates a new running sandbox with a copy of another sandbox's files, including uncommitted work. The source can be running or stopped. The new sandbox has its own bill and keeps the source's environment and secrets. Running processes are not copied. Returns the new sandbox.",
  input: {
    sandbox: sandboxRef().describe('Required. The source.'),
    name: z
      .string()
      .optional()
      .describe('Name of the new sandbox. Default sb- and six hex digits.'),
  },
  scope: 'sandboxes:write',
  annotations: { readOnlyHint: false, idempotentHint: false },
  handle: (api, caller, args) => api.sandboxes.fork(caller, args.sandbox, args.name),
});
