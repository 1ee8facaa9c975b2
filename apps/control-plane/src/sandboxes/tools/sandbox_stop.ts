import { sandboxRef } from './fields';
import { sandboxTool } from './sandbox-tool';

export const sandboxStopTool = sandboxTool({
  name: 'sandbox_stop',
  title: 'Stop a sandbox',
  description:
    'Stops a sandbox. Files and running processes are kept (frozen). A stopped sandbox is billed 6¢ per GiB a month for its stored data. Stopping a stopped sandbox succeeds. Returns the sandbox, with stopped_reason.',
  input: { sandbox: sandboxRef() },
  scope: 'sandboxes:write',
  annotations: { readOnlyHint: false, idempotentHint: true },
  handle: (api, caller, args) => api.sandboxes.stop(caller, args.sandbox),
});
