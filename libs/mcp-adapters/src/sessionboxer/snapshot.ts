import { defineTool } from '../kit/define-tool';

export const snapshotInput = {};

/** Takes a Snapshot of the calling session's box. */
export const snapshotTool = defineTool({
  name: 'snapshot',
  title: 'Take a Snapshot',
  description: [
    "Take a Snapshot of this session's Sandbox now: its disk, the workspace and the",
    'conversation, the same as the Snapshot button. The person can fork a new session from it',
    'or revert to it. Returns { id, ordinal, sizeBytes, createdAt }; the transcript gets the',
    'marker "took Snapshot n". Not available in Windows and macOS sessions (their VM disk is',
    'outside the Sandbox image): there it returns an error saying so.',
  ].join(' '),
  input: snapshotInput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  route: 'control-plane',
});
