import { z } from 'zod';
import { commandField, sandboxRef, timeoutField } from './fields';
import { sandboxTool } from './sandbox-tool';

export const sandboxExecTool = sandboxTool({
  name: 'sandbox_exec',
  title: 'Run a command in a sandbox',
  description:
    "Runs a command with sh -c in a running sandbox, as root, and returns when it finishes: exit_code, stdout, stderr and truncated. Each stream is cut at 1 MB, and truncated is true when that happens. Values of the sandbox's secrets are masked. A command that exits non-zero is a normal response with its exit_code, not a tool error; one that runs past timeout_seconds is killed with its process group and answered with the error timeout.",
  input: {
    sandbox: sandboxRef(),
    command: commandField(),
    cwd: z.string().min(1).optional().describe('Working directory. Default /root.'),
    env: z
      .record(z.string())
      .optional()
      .describe('Environment variables for this command. Default {}.'),
    timeout_seconds: timeoutField().optional(),
  },
  scope: 'sandboxes:write',
  annotations: { readOnlyHint: false, destructiveHint: true },
  handle: (api, caller, args) => api.work.exec(caller, args),
});
