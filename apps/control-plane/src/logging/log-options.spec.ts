import { prettyLine } from './log-options';

describe('prettyLine', () => {
  it('turns a pino line into time, level, context, message and the other fields', () => {
    const line = JSON.stringify({
      level: 30,
      time: Date.parse('2026-01-01T12:00:01Z'),
      pid: 1,
      hostname: 'h',
      context: 'Commands',
      msg: 'command Stop',
      ms: 2,
    });
    expect(prettyLine(line)).toBe('12:00:01 INFO [Commands] command Stop {"ms":2}');
  });

  it('passes a line that is not JSON as it is', () => {
    expect(prettyLine('plain words')).toBe('plain words');
  });
});
