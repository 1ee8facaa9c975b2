import { idleTimeoutField, metadataField, sandboxRef, stopWhenAgentsFinishField } from './fields';
import { sandboxTool } from './sandbox-tool';

export const sandboxUpdateTool = sandboxTool({
  name: 'sandbox_update',
  title: 'Change a sandbox',
  description:
    "Changes the idle timeout of a running or stopped sandbox, whether it stops when its agents finish, or its metadata (which it replaces whole; {} removes it). Pass at least one of the three. On a running sandbox the timeout counts from now. Use counts as a command, a file read or write, or an agent's running turn; a process running alone does not. Returns the sandbox.",
  input: {
    sandbox: sandboxRef(),
    idle_timeout_seconds: idleTimeoutField().optional(),
    stop_when_agents_finish: stopWhenAgentsFinishField().optional(),
    metadata: metadataField().optional(),
  },
  scope: 'sandboxes:write',
  annotations: { readOnlyHint: false, idempotentHint: true },
  handle: (api, caller, { sandbox, ...args }) => api.sandboxes.update(caller, sandbox, args),
});
