import { defineTool } from '../kit/define-tool';

export const queueListInput = {};

/** The prompts waiting for the calling session's agent. */
export const queueListTool = defineTool({
  name: 'queue_list',
  title: 'List the queued prompts',
  description: [
    'Returns the prompts queued for this session, in the order they will be sent:',
    '{ prompts: [{ id, text, position, queuedAt, from }] }, from being who queued it',
    '({ kind: "person" } or { kind: "agent", sessionId }). Yours (queue_add) and the person\'s.',
  ].join(' '),
  input: queueListInput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  route: 'control-plane',
});
