import { text } from '../kit/fields';
import { defineTool } from '../kit/define-tool';

/** A follow-up the agent queues for itself; the person's own prompts may be longer. */
export const QUEUE_TEXT_MAX = 20_000;

export const queueAddInput = { text: text('text', QUEUE_TEXT_MAX) };

/** Queues a prompt for the calling session's own agent. */
export const queueAddTool = defineTool({
  name: 'queue_add',
  title: 'Queue a prompt for yourself',
  description: [
    'Queue a prompt for yourself: it is sent as your next user turn once the current one ends,',
    'after anything already queued. Meant for a follow-up you want a fresh turn for; the person',
    'sees it in the queue and can edit or drop it before it goes.',
    `text: 1–${QUEUE_TEXT_MAX} characters, several lines allowed (trimmed).`,
    'Returns { id, position } (position 1 runs next). The transcript gets the marker',
    '"queued a message (…)".',
  ].join(' '),
  input: queueAddInput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  route: 'control-plane',
});
