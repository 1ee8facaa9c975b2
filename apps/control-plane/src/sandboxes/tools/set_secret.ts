import { z } from 'zod';
import { SECRET_PRODUCTS, SECRET_VALUE_MAX_LENGTH } from '@sessionboxer/domain/environment';
import { actor } from './create_environment';
import { environmentsAnswer } from './list_environments';
import { sandboxTool } from './sandbox-tool';

export const setSecretTool = sandboxTool({
  name: 'set_secret',
  title: 'Set a secret',
  description:
    'Sets a secret\'s value in an environment (encrypted at rest; never shown again), with its products (default: kept, or ["sandboxes"] for a new one). A sandbox gets only secrets whose products include sandboxes. Returns { environments } with names and products only.',
  input: {
    name: z
      .string()
      .min(1)
      .describe('Required. The environment variable it becomes, such as OPENAI_API_KEY.'),
    value: z.string().min(1).max(SECRET_VALUE_MAX_LENGTH).describe('Required. One line.'),
    environment: z.string().optional().describe('Default default.'),
    products: z.array(z.enum(SECRET_PRODUCTS as [string, ...string[]])).optional(),
  },
  scope: 'sandboxes:write',
  annotations: { readOnlyHint: false, idempotentHint: true },
  handle: async (api, caller, args) =>
    environmentsAnswer(await api.environments.setSecret(caller.orgId, args, actor(caller))),
});
