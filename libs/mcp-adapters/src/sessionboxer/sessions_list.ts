import { defineTool } from '../kit/define-tool';

export const sessionsListInput = {};

export const sessionsListTool = defineTool({
  name: 'sessions_list',
  title: 'List the sessions',
  description: [
    'Returns every session on this Sessionboxer: id, title, url, status (running, idle, stopped,',
    'error), provider, environment, repos (names), createdAt, createdBy ({ sessionId, title } of',
    'the session whose agent created it: "child of …", or null), forkedFrom ({ sessionId, title,',
    'snapshotId } or null) and queueLength, with this session marked self: true and the ones this',
    'agent created mine: true.',
    'Needs the All Sessions policy.',
  ].join(' '),
  input: sessionsListInput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  route: 'control-plane',
});
