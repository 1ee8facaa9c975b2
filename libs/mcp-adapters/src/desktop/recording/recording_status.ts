import { defineInBoxTool } from '../../kit/define-tool';
import type { RecordingPort, RecordingStatus } from './port';

export const recordingStatusInput = {};

/** Whether a recording runs, and how far it got. */
export const recordingStatusTool = defineInBoxTool({
  name: 'recording_status',
  title: 'Recording status',
  description: [
    'Whether a recording of the desktop is running. No parameters. Returns { path, startedAt,',
    'seconds, captions } for the running recording (seconds since it started, the number of',
    'captions so far), or { "recording": false }.',
  ].join(' '),
  input: recordingStatusInput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  route: 'box',
  handle: (port: RecordingPort): Promise<RecordingStatus> => port.status(),
});
