import { defineTool } from '../kit/define-tool';
import { int } from '../kit/fields';

export const sessionForkInput = {
  turn: int('turn', 1, Number.MAX_SAFE_INTEGER).optional(),
};

export const sessionForkTool = defineTool({
  name: 'session_fork',
  title: 'Fork this session',
  description: [
    'Fork this session from a Snapshot taken now: the new session has the same files,',
    'repositories and tools, starts idle, and is marked as created by this session (child of …).',
    'With turn (optional, a turn of this session that has ended), fork from the snapshot taken',
    "automatically when that turn ended instead: its files as they were then, and the fork's",
    'transcript is this conversation up to the end of that turn.',
    'Returns { pending: false, sessionId, title, url, snapshotOrdinal } (snapshotOrdinal null',
    'with turn: turn snapshots have no Snapshot number). It counts as one of your 3 alive',
    'sessions (session_stop frees a place) and against the global cap. Works under This',
    'Session only too, since it acts on this session. Not available in Windows and macOS sessions',
    '(they have no snapshots). Markers: "took Snapshot n" (not with turn) and "forked the Session as …".',
  ].join(' '),
  input: sessionForkInput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  route: 'control-plane',
});
