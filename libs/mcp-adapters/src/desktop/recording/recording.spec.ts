import { isToolCallError, type ToolCallError } from '../../kit/call-error';
import { parseRecordingCall, recordingTools, type RecordingPort } from './index';

function refusal(tool: string, args: unknown): ToolCallError {
  try {
    parseRecordingCall(tool, args);
  } catch (e) {
    if (isToolCallError(e)) return e;
    throw e;
  }
  throw new Error(`${tool} accepted ${JSON.stringify(args)}`);
}

describe('the recording tools', () => {
  it('are the five of the spec, answered in the box', () => {
    expect(recordingTools.map((t) => t.name)).toEqual([
      'start_recording',
      'annotate_recording',
      'stop_recording',
      'narrate_recording',
      'recording_status',
    ]);
    expect(new Set(recordingTools.map((t) => t.route))).toEqual(new Set(['box']));
    const readOnly = recordingTools.filter((t) => t.annotations.readOnlyHint).map((t) => t.name);
    expect(readOnly).toEqual(['recording_status']);
  });

  it.each([
    ['annotate_recording', {}, 'text', /text is required/],
    ['annotate_recording', { text: '   ' }, 'text', /text must not be empty/],
    ['annotate_recording', { text: 'x'.repeat(301) }, 'text', /at most 300 characters/],
    ['annotate_recording', { text: 'two\nlines' }, 'text', /text must be one line/],
    ['stop_recording', { narrate: 'yes' }, 'narrate', /narrate must be true or false/],
    ['narrate_recording', {}, 'path', /path is required/],
    ['narrate_recording', { path: 'recordings/a.mp4' }, 'path', /absolute \.mp4 path/],
    ['narrate_recording', { path: '/workspace/notes.txt' }, 'path', /absolute \.mp4 path/],
    ['start_recording', { display: ':1' }, 'display', /not a parameter .* no parameters/],
  ])('%s refuses %j naming %s', (tool, args, field, message) => {
    const e = refusal(tool, args);
    expect(e.field).toBe(field);
    expect(e.message).toMatch(message);
    expect(e.message.startsWith(`${tool}: `)).toBe(true);
  });

  it('passes trimmed arguments to the port', async () => {
    const calls: unknown[] = [];
    const port = {
      annotate: (text: string) => {
        calls.push(text);
        return Promise.resolve({ at: 1, text, path: '/workspace/recordings/a.mp4' });
      },
    } as unknown as RecordingPort;
    const tool = recordingTools.find((t) => t.name === 'annotate_recording')!;
    const args = parseRecordingCall('annotate_recording', { text: '  Clicking Save  ' });
    await tool.handle(port, args);
    expect(calls).toEqual(['Clicking Save']);
  });
});
