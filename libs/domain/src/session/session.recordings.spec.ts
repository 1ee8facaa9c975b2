import { ErrorCode } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import { AT, meta, sessionCreated, sessionStopped } from '../../test/session-fixtures';
import { sessionDecider } from './session.decider';
import type { RecordingData, RecordRecording } from './session.commands';

const spec = DeciderSpecification.for(sessionDecider);

const data = (overrides: Partial<RecordingData> = {}): RecordingData => ({
  sessionId: 's1',
  path: '/workspace/recordings/a.mp4',
  startedAt: AT,
  recordedSeconds: 30,
  seconds: 21.5,
  bytes: 123_456,
  captions: [
    { at: 0, text: 'Opening the form' },
    { at: 7.2, text: 'Submitting it empty' },
  ],
  track: '/workspace/recordings/a.vtt',
  narration: 'skipped',
  ...overrides,
});
const record = (overrides: Partial<RecordingData> = {}): RecordRecording => ({
  type: 'RecordRecording',
  data: data(overrides),
  metadata: meta(),
});

describe('session recordings', () => {
  describe('no session', () => {
    it('cannot be recorded', () => {
      spec.given([]).when(record()).thenThrows(ErrorCode.NotFound, 'session s1 does not exist');
    });
  });

  describe('running', () => {
    const given = spec.given([sessionCreated()]);

    it('records a finished recording with its captions and the command time', () => {
      given.when(record()).then([{ type: 'RecordingFinished', data: { ...data(), at: AT } }]);
    });

    it.each([
      [
        'a path outside the workspace',
        { path: '/etc/passwd' },
        /path: must be a file under \/workspace/,
      ],
      ['a path climbing out', { path: '/workspace/../etc/x.mp4' }, /path/],
      ['a track outside the workspace', { track: '/tmp/a.vtt' }, /track/],
      ['a negative length', { seconds: -1 }, /seconds/],
      ['an empty caption', { captions: [{ at: 0, text: '' }] }, /captions\.0\.text/],
      ['a caption at NaN', { captions: [{ at: Number.NaN, text: 'x' }] }, /captions\.0\.at/],
    ])('refuses %s', (_case, overrides, why) => {
      given.when(record(overrides)).thenThrows(ErrorCode.ValidationFailed, why);
    });
  });

  describe('narration added later', () => {
    const narrated = (overrides: object = {}) => ({
      type: 'RecordRecordingNarrated' as const,
      data: {
        sessionId: 's1',
        path: '/workspace/recordings/a.mp4',
        seconds: 25,
        bytes: 200_000,
        captions: [{ at: 0, text: 'Opening the form' }],
        track: '/workspace/recordings/a.vtt',
        ...overrides,
      },
      metadata: meta(),
    });

    it('records the new length, re-timed captions and the added narration', () => {
      spec
        .given([sessionCreated()])
        .when(narrated())
        .then([
          { type: 'RecordingNarrated', data: { ...narrated().data, narration: 'added', at: AT } },
        ]);
    });

    it('refuses a path outside the workspace', () => {
      spec
        .given([sessionCreated()])
        .when(narrated({ path: '/etc/passwd' }))
        .thenThrows(ErrorCode.ValidationFailed, /path/);
    });
  });

  describe('stopped', () => {
    it('still records a recording finished just before the stop', () => {
      spec
        .given([sessionCreated(), sessionStopped('s1')])
        .when(record({ captions: [], track: null, narration: null }))
        .then([
          {
            type: 'RecordingFinished',
            data: { ...data({ captions: [], track: null, narration: null }), at: AT },
          },
        ]);
    });
  });
});
