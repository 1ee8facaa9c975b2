import { ErrorCode } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import { meta, sessionCreated } from '../../test/session-fixtures';
import { terminalOpened } from '../../test/session-activity-fixtures';
import type { RecordTerminalOutput, TerminalOutputRecorded } from './index';
import { sessionDecider } from './session.decider';

const spec = DeciderSpecification.for(sessionDecider);
const AT = '2026-01-02T04:00:00.000Z';
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

const output = (offset: number, text: string, terminalId = 't1'): RecordTerminalOutput => ({
  type: 'RecordTerminalOutput',
  data: { sessionId: 's1', terminalId, offset, data: b64(text) },
  metadata: meta({ at: AT }),
});
const recorded = (offset: number, text: string): TerminalOutputRecorded => ({
  type: 'TerminalOutputRecorded',
  data: {
    sessionId: 's1',
    terminalId: 't1',
    offset,
    length: Buffer.byteLength(text),
    data: b64(text),
    at: AT,
  },
});

describe("a Terminal's output", () => {
  describe('a session with Terminal t1, nothing recorded yet', () => {
    const given = spec.given([sessionCreated(), terminalOpened('s1', 't1')]);

    it('records a batch with its byte length (multi-byte characters counted as bytes)', () => {
      given.when(output(0, 'héllo ✓\r\n')).then([recorded(0, 'héllo ✓\r\n')]);
    });

    it('refuses output of a Terminal the session does not have', () => {
      given
        .when(output(0, 'x', 't9'))
        .thenThrows(ErrorCode.NotFound, 'session s1 has no Terminal t9');
    });

    it.each([
      ['empty data', { data: '' }, /base64, not empty/],
      ['data that is not base64', { data: 'no spaces!' }, /base64/],
      ['a negative offset', { offset: -1 }, /offset must be between 0/],
      ['a batch past 64 KiB', { data: b64('x'.repeat(64 * 1024 + 1)) }, /at most 65536 bytes/],
    ])('refuses %s', (_case, data, why) => {
      const command = { ...output(0, 'x'), data: { ...output(0, 'x').data, ...data } };
      given.when(command).thenThrows(ErrorCode.ValidationFailed, why);
    });
  });

  describe('bytes 0–5 recorded', () => {
    const given = spec.given([sessionCreated(), terminalOpened('s1', 't1'), recorded(0, 'hello')]);

    it('records the next batch where it follows', () => {
      given.when(output(5, ' world')).then([recorded(5, ' world')]);
    });

    it('records nothing for a batch sent again (a reconnect)', () => {
      given.when(output(0, 'hello')).then([]);
    });

    it('records a batch after a gap where it is, so the gap shows in the offsets', () => {
      given.when(output(9, 'later')).then([recorded(9, 'later')]);
    });
  });
});
