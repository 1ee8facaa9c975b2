import { defineTool } from '../kit/define-tool';

export const whoamiInput = {};

/** The calling session as the control plane sees it, live. */
export const whoamiTool = defineTool({
  name: 'whoami',
  title: 'Who am I',
  description: [
    'Returns this session as Sessionboxer sees it right now: id, title, url, provider, model,',
    'environment (docker-linux | qemu-windows | qemu-macos), guest ({ os, workspace } or null),',
    'createdAt, forkedFrom, createdBy (the agent session that created this one, or null), branch,',
    'snapshotCount, sessionboxerVersion, agentTools (the policy: off | session | all), status,',
    'usage, context, queueLength, panes (which panes the person has open now), terminals',
    '[{ id, createdAt, exitCode }], prs (attached pull requests), verification (the current Auto',
    'QA run or null) and repos [{ name, path }]. .sessionboxer/session.json in the workspace',
    'holds the static part without a call; use whoami for the live part (status, panes,',
    'terminals, PRs).',
  ].join(' '),
  input: whoamiInput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  route: 'control-plane',
});
