import { NOTIFICATION_MAX_LENGTH } from '@sessionboxer/domain';
import { text } from '../kit/fields';
import { defineTool } from '../kit/define-tool';

export const NOTIFY_MAX = NOTIFICATION_MAX_LENGTH;

export const notifyInput = { text: text('text', NOTIFY_MAX) };

/** Sends the person a short notification about the calling session. */
export const notifyTool = defineTool({
  name: 'notify',
  title: 'Notify the person',
  description: [
    'Send the person a short notification about this session: a browser push (on devices',
    'enrolled under Devices) and the bell in Sessionboxer. For something that cannot wait for',
    'your reply (you are blocked on them, something broke), not for progress.',
    `text: 1–${NOTIFY_MAX} characters. Returns { ok: true }; the transcript gets the marker`,
    '"notified you: …".',
  ].join(' '),
  input: notifyInput,
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    // It reaches the person's devices outside Sessionboxer.
    openWorldHint: true,
  },
  route: 'control-plane',
});
