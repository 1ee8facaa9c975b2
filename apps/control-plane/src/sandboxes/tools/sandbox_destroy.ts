import { sandboxRef } from './fields';
import { sandboxTool } from './sandbox-tool';

export const sandboxDestroyTool = sandboxTool({
  name: 'sandbox_destroy',
  title: 'Delete a sandbox',
  description:
    'Deletes a sandbox and its stored data. Billing stops. This cannot be undone (sandbox_list with all still shows it). Returns the sandbox.',
  input: { sandbox: sandboxRef() },
  scope: 'sandboxes:write',
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  handle: (api, caller, args) => api.sandboxes.destroy(caller, args.sandbox),
});
