/** The desktop server's recording tools as data (answered in the box by its recorder). */
import type { z } from 'zod';
import { callParser } from '../../kit/call-parser';
import type { InBoxTool } from '../../kit/tool';
import { annotateRecordingTool } from './annotate_recording';
import { narrateRecordingTool } from './narrate_recording';
import type { RecordingPort } from './port';
import { recordingStatusTool } from './recording_status';
import { startRecordingTool } from './start_recording';
import { stopRecordingTool } from './stop_recording';

export * from './annotate_recording';
export * from './narrate_recording';
export * from './port';
export * from './report-fields';
export * from './recording_status';
export * from './start_recording';
export * from './stop_recording';

/** A recording tool, answered inside the box against the recorder. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a registry holds every shape
export type RecordingTool = InBoxTool<z.ZodRawShape, RecordingPort, any>;

/** Every recording tool, in the order of the spec. */
export const recordingTools: readonly RecordingTool[] = [
  startRecordingTool,
  annotateRecordingTool,
  stopRecordingTool,
  narrateRecordingTool,
  recordingStatusTool,
];

/**
 * Checks one call against the tool's schema, like the sessionboxer registry's parseCall: returns
 * the parsed arguments (trimmed) or throws a ToolCallError whose message names each wrong field.
 */
export const parseRecordingCall = callParser('recording tool', recordingTools);
