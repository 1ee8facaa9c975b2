import { z } from 'zod';
import { sandboxTool } from './sandbox-tool';
import { environmentsAnswer } from './list_environments';

export const createEnvironmentTool = sandboxTool({
  name: 'create_environment',
  title: 'Create a secrets environment',
  description:
    "Creates a named secrets environment of the org (default always exists). Names are lower case letters, digits and dashes. Returns { environments } with each one's secret names and products (never values).",
  input: { name: z.string().min(1).describe("Required. The new environment's name.") },
  scope: 'sandboxes:write',
  annotations: { readOnlyHint: false },
  handle: async (api, caller, args) =>
    environmentsAnswer(
      await api.environments.execute(caller.orgId, 'CreateEnvironment', args, actor(caller)),
    ),
});

export const actor = (caller: { keyId: string; orgId: string }) =>
  ({ kind: 'api-key', keyId: caller.keyId, orgId: caller.orgId }) as const;
