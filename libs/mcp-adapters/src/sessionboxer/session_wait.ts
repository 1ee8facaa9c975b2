import { sessionRef, timeoutSeconds, WAIT_DEFAULT, WAIT_MAX } from './session-fields';
import { defineTool } from '../kit/define-tool';

export const sessionWaitInput = { session: sessionRef(), timeout_seconds: timeoutSeconds() };

export const sessionWaitTool = defineTool({
  name: 'session_wait',
  title: "Wait for another session's agent",
  description: [
    "Wait until another session's agent has finished its turn and its queue is empty, or",
    `timeout_seconds pass (1–${WAIT_MAX}, default ${WAIT_DEFAULT}). Returns { sessionId, title,`,
    'still_running, status, lastReply }; call again while still_running is true. Waiting for',
    'this session itself is refused. Needs All Sessions.',
  ].join(' '),
  input: sessionWaitInput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  route: 'control-plane',
});
