import {
  EMPTY_ID_SET,
  RECORDING_CAPTION_MAX,
  RECORDING_CAPTIONS_MAX,
  RECORDING_SECONDS_MAX,
  sessionDecider,
  type SessionState,
} from '@sessionboxer/domain';
import { recordingFinishedReport, recordingNarratedReport } from './report-fields';

const report = {
  path: '/workspace/recordings/a.mp4',
  startedAt: '2026-12-01T10:00:00.000Z',
  recordedSeconds: 30,
  seconds: 21.5,
  bytes: 123_456,
  captions: [{ at: 0, text: 'Opening the form' }],
  track: '/workspace/recordings/a.vtt',
  narration: 'skipped',
};
const caption = (text: string) => ({ at: 1, text });

// The schema and the session decider share their limits: what one takes, the other records.
const running: SessionState = {
  status: 'running',
  sessionId: 's1',
  title: 't',
  createdBy: null,
  environment: 'docker-linux',
  snapshots: {},
  snapshotCount: 0,
  terminals: {},
  notificationIds: EMPTY_ID_SET,
};
const metadata = { commandId: 'c1', at: '2026-12-01T10:01:00.000Z', actor: { kind: 'system' } };

describe('recording reports', () => {
  it('takes a finished recording the session decider then records', () => {
    const data = { sessionId: 's1', ...recordingFinishedReport.parse(report) };
    const command = { type: 'RecordRecording' as const, data, metadata };
    expect(sessionDecider.decide(command as never, running)).toHaveLength(1);
  });

  it('takes the most captions and the longest caption the domain allows, not one more', () => {
    const most = Array.from({ length: RECORDING_CAPTIONS_MAX }, () => caption('x'));
    expect(recordingFinishedReport.safeParse({ ...report, captions: most }).success).toBe(true);
    const tooMany = [...most, caption('x')];
    expect(recordingFinishedReport.safeParse({ ...report, captions: tooMany }).success).toBe(false);
    const { startedAt: _s, recordedSeconds: _r, narration: _n, ...narrated } = report;
    const longest = [caption('x'.repeat(RECORDING_CAPTION_MAX))];
    expect(recordingNarratedReport.safeParse({ ...narrated, captions: longest }).success).toBe(
      true,
    );
    const tooLong = [caption('x'.repeat(RECORDING_CAPTION_MAX + 1))];
    expect(recordingNarratedReport.safeParse({ ...narrated, captions: tooLong }).success).toBe(
      false,
    );
  });

  it('refuses a narration the domain does not know and a length beyond a day', () => {
    expect(recordingFinishedReport.safeParse({ ...report, narration: 'loud' }).success).toBe(false);
    expect(recordingFinishedReport.safeParse({ ...report, narration: null }).success).toBe(true);
    const long = { ...report, seconds: RECORDING_SECONDS_MAX + 1 };
    expect(recordingFinishedReport.safeParse(long).success).toBe(false);
  });
});
