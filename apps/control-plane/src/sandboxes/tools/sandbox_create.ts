import { z } from 'zod';
import { SECRET_NAME_PATTERN } from '@sessionboxer/domain/sandbox';
import { idleTimeoutField, metadataField, sizeField, stopWhenAgentsFinishField } from './fields';
import { sandboxTool } from './sandbox-tool';

export const sandboxCreateTool = sandboxTool({
  name: 'sandbox_create',
  title: 'Create a sandbox',
  description: [
    'Creates a sandbox and starts it. Returns the sandbox: id, name, status, size, cpu, memory_gib,',
    'disk_gib, cents_per_hour, idle_timeout_seconds, stop_when_agents_finish, secrets (names only),',
    'environment, metadata, cost_cents and timestamps. Set idle_timeout_seconds so a forgotten',
    'sandbox stops. Fails with unknown_environment when environment does not exist, and with',
    'unknown_secrets when a named secret is not in it or does not include sandboxes in its products.',
    'A retry with the same idempotency_key returns the same sandbox.',
  ].join(' '),
  input: {
    name: z
      .string()
      .optional()
      .describe('Lower case letters, digits and dashes. Default sb- and six hex digits.'),
    size: sizeField().optional(),
    secrets: z
      .array(z.string().regex(SECRET_NAME_PATTERN))
      .optional()
      .describe(
        'Names of secrets to set as environment variables, read from environment. Default [].',
      ),
    environment: z
      .string()
      .optional()
      .describe('The secrets environment the secrets are read from. Default default.'),
    idle_timeout_seconds: idleTimeoutField().optional(),
    stop_when_agents_finish: stopWhenAgentsFinishField().optional(),
    metadata: metadataField().optional(),
    idempotency_key: z
      .string()
      .optional()
      .describe('A retry with the same key returns the same sandbox.'),
  },
  scope: 'sandboxes:write',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  handle: (api, caller, args) => api.sandboxes.create(caller, args),
});
