import type { EnvironmentsState } from '@sessionboxer/domain/environment';
import { sandboxTool } from './sandbox-tool';

/** Environments with their secrets' names and products: values are never answered. */
export function environmentsAnswer(state: EnvironmentsState) {
  return {
    environments: Object.entries(state.environments).map(([name, secrets]) => ({
      name,
      secrets: Object.entries(secrets).map(([secret, products]) => ({ name: secret, products })),
    })),
  };
}

export const listEnvironmentsTool = sandboxTool({
  name: 'list_environments',
  title: 'List secrets environments',
  description:
    "Lists the org's secrets environments and, in each, its secrets' names and products. Values are never shown.",
  input: {},
  scope: 'sandboxes:read',
  annotations: { readOnlyHint: true },
  handle: async (api, caller) => environmentsAnswer(await api.environments.state(caller.orgId)),
});
