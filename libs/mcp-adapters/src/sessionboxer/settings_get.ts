import { defineTool } from '../kit/define-tool';

export const settingsGetInput = {};

/** The public settings that apply to the calling session, secrets removed. */
export const settingsGetTool = defineTool({
  name: 'settings_get',
  title: 'Read the settings',
  description: [
    'Returns the public settings that apply to this session, the same object the Sessionboxer UI',
    'reads: environments available, defaults, git identity, the MCP registry without its',
    'secrets, the sessionboxer policy in force for this session. Every secret-shaped value (tokens,',
    'passwords, API keys, private keys, cookies) is removed before it leaves Sessionboxer, so never',
    'ask for one here.',
  ].join(' '),
  input: settingsGetInput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  route: 'control-plane',
  // The control plane already leaves secrets out; redacting here again means a settings field
  // added later without that care still cannot reach an agent.
});
