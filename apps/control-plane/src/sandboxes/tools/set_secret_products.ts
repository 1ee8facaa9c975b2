import { z } from 'zod';
import { SECRET_PRODUCTS } from '@sessionboxer/domain/environment';
import { actor } from './create_environment';
import { environmentsAnswer } from './list_environments';
import { sandboxTool } from './sandbox-tool';

export const setSecretProductsTool = sandboxTool({
  name: 'set_secret_products',
  title: "Set a secret's products",
  description:
    'Replaces which products may use a secret (sandboxes, agents, ci), keeping its value. Returns { environments } with names and products only.',
  input: {
    name: z.string().min(1).describe('Required. The secret.'),
    products: z.array(z.enum(SECRET_PRODUCTS as [string, ...string[]])).describe('Required.'),
    environment: z.string().optional().describe('Default default.'),
  },
  scope: 'sandboxes:write',
  annotations: { readOnlyHint: false, idempotentHint: true },
  handle: async (api, caller, args) =>
    environmentsAnswer(
      await api.environments.execute(caller.orgId, 'SetSecretProducts', args, actor(caller)),
    ),
});
