import { defineTool } from '../kit/define-tool';

export const sessionForkInput = {};

export const sessionForkTool = defineTool({
  name: 'session_fork',
  title: 'Fork this session',
  description: [
    'Fork this session from a Snapshot taken now: the new session has the same files,',
    'repositories and tools, starts idle, and is marked as created by this session (child of …).',
    'Returns { pending: false, sessionId, title, url, snapshotOrdinal }. It counts as one of your',
    '3 alive sessions (session_stop frees a place) and against the global cap. Works under This',
    'Session only too, since it acts on this session. Not available in Windows and macOS sessions',
    '(they have no snapshots). Markers: "took Snapshot n" and "forked the Session as …".',
  ].join(' '),
  input: sessionForkInput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  route: 'control-plane',
});
