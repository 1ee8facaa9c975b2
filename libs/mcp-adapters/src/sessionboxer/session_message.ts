import { oneOf } from '../kit/fields';
import { MESSAGE_MAX, promptText, sessionRef } from './session-fields';
import { defineTool } from '../kit/define-tool';

export const sessionMessageInput = {
  session: sessionRef(),
  text: promptText('text'),
  when: oneOf('when', ['now', 'queue'] as const).default('now'),
};

export const sessionMessageTool = defineTool({
  name: 'session_message',
  title: "Message another session's agent",
  description: [
    `Send a prompt (text, 1–${MESSAGE_MAX} characters) to another session's agent. Its transcript`,
    'shows it as from this session (its Agent), never as the person’s words; yours shows "sent a',
    'message to …". Returns { sessionId, title, delivery }: prompted (its turn started) or queued.',
    'when: now (default) or queue, which leaves a message for a stopped session until it is',
    'resumed. Refused for this session itself (use queue_add), while your previous message to that',
    'session is in flight (session_wait for its reply first), past 4 hops of agents prompting',
    'agents, for a session in error, and for a stopped one with when now. Needs All Sessions.',
  ].join(' '),
  input: sessionMessageInput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  route: 'control-plane',
});
