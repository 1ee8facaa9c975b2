import { sessionRef } from './session-fields';
import { defineTool } from '../kit/define-tool';

export const sessionGetInput = { session: sessionRef() };

export const sessionGetTool = defineTool({
  name: 'session_get',
  title: 'Look at another session',
  description: [
    "Returns one session's summary (as sessions_list gives it) plus lastReply, the last thing its",
    'agent said, cut at 2,000 characters; never its whole conversation. session: an id from',
    'sessions_list or a prefix of 6+ characters naming one session. Needs All Sessions.',
  ].join(' '),
  input: sessionGetInput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  route: 'control-plane',
});
