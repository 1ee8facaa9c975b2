import { sessionRef } from './session-fields';
import { defineTool } from '../kit/define-tool';

export const sessionStopInput = { session: sessionRef() };

export const sessionStopTool = defineTool({
  name: 'session_stop',
  title: 'Stop a session you created',
  description: [
    'Stop a session this agent created: its Sandbox stops (the person can resume it) and one of',
    'your 3 places for alive sessions is free again. Returns { sessionId, title, status }. Any',
    'other session is not yours to stop, and the tool refuses it; so is stopping this session',
    'itself (end your turn instead). Needs All Sessions. Marker: "stopped the Session".',
  ].join(' '),
  input: sessionStopInput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  route: 'control-plane',
});
