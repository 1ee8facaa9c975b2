import { ErrorCode } from '@sessionboxer/domain';
import { z } from 'zod';
import { isToolCallError, type ToolCallError } from '../kit/call-error';
import { e2eTools, findE2eTool, parseE2eCall } from './registry';

/** The refusal parseE2eCall throws for `args`. */
function refusal(tool: string, args: unknown): ToolCallError {
  try {
    parseE2eCall(tool, args);
  } catch (e) {
    if (isToolCallError(e)) return e;
    throw e;
  }
  throw new Error(`${tool} accepted ${JSON.stringify(args)}`);
}

const long = (n: number) => 'x'.repeat(n);

describe('the Auto QA registry', () => {
  it('holds the four e2e tools of the spec, in its order, all answered over /e2e', () => {
    expect(e2eTools.map((t) => t.name)).toEqual([
      'e2e_plan',
      'e2e_case_start',
      'e2e_case_end',
      'e2e_finish',
    ]);
    expect(e2eTools.every((t) => t.route === 'e2e')).toBe(true);
    expect(findE2eTool('verify')).toBeUndefined();
  });

  it.each(e2eTools.map((t) => t.name))(
    '%s has a title, a description and every annotation',
    (name) => {
      const tool = findE2eTool(name);
      expect(tool?.title).toMatch(/\w/);
      expect(tool?.description).toMatch(/without one it errors/);
      expect(tool?.annotations).toEqual({
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
      });
      expect(() => z.object(tool?.input ?? {})).not.toThrow();
    },
  );

  it('refuses an unknown tool, naming the four', () => {
    const error = refusal('e2e_abort', {});
    expect(error.code).toBe(ErrorCode.NotFound);
    expect(error.message).toMatch(
      /no Auto QA tool "e2e_abort" \(the tools are e2e_plan, e2e_case_start/,
    );
  });
});

// [tool, arguments, the field named, what the message says]
const refused: [string, unknown, string, RegExp][] = [
  ['e2e_plan', {}, 'cases', /give either cases .* or skip/],
  ['e2e_plan', { cases: ['a'], skip: 'nothing' }, 'skip', /cases and skip were both given/],
  ['e2e_plan', { cases: [] }, 'cases', /cases must list at least one case/],
  ['e2e_plan', { cases: [''] }, 'cases[0]', /a case title must not be empty/],
  ['e2e_plan', { skip: long(501) }, 'skip', /skip must be at most 500 characters/],
  ['e2e_case_start', {}, 'index', /index is required/],
  ['e2e_case_start', { index: 0 }, 'index', /index must be at least 1/],
  ['e2e_case_start', { index: 1.5 }, 'index', /index must be a whole number/],
  [
    'e2e_case_start',
    { index: 1, runId: 'r1' },
    'runId',
    /runId is not a parameter of this tool \(it takes index\)/,
  ],
  ['e2e_case_end', { index: 1 }, 'status', /status is required \(one of passed, failed\)/],
  [
    'e2e_case_end',
    { index: 1, status: 'ok' },
    'status',
    /status must be one of passed, failed \(got "ok"\)/,
  ],
  [
    'e2e_case_end',
    { index: 1, status: 'failed', note: long(2001) },
    'note',
    /note must be at most 2000/,
  ],
  [
    'e2e_case_end',
    { index: 1, status: 'passed', screenshot: '/tmp/1.png' },
    'screenshot',
    /screenshot must be a file under \/workspace/,
  ],
  [
    'e2e_case_end',
    { index: 1, status: 'passed', screenshot: '/workspace/../x.png' },
    'screenshot',
    /no "\." or "\.\." segments/,
  ],
  ['e2e_finish', { video: 'run.mp4' }, 'video', /video must be a file under \/workspace/],
  ['e2e_finish', { summary: '' }, 'summary', /summary must not be empty/],
];

describe('each tool refuses bad arguments with a message naming the tool and the field', () => {
  it.each(refused)('%s %j → %s', (tool, args, field, message) => {
    const error = refusal(tool, args);
    expect(error.code).toBe(ErrorCode.ValidationFailed);
    expect(error.field).toBe(field);
    expect(error.message.startsWith(`${tool}: `)).toBe(true);
    expect(error.message).toMatch(message);
  });
});

describe('accepted arguments come back parsed', () => {
  it('trims titles, notes and paths; several lines in a note', () => {
    expect(parseE2eCall('e2e_plan', { cases: [' Log in ', 'Log out'] })).toEqual({
      cases: ['Log in', 'Log out'],
    });
    const end = {
      index: 2,
      status: 'failed',
      note: ' Nothing\nhappens ',
      screenshot: ' /workspace/qa/2.png',
    };
    expect(parseE2eCall('e2e_case_end', end)).toEqual({
      index: 2,
      status: 'failed',
      note: 'Nothing\nhappens',
      screenshot: '/workspace/qa/2.png',
    });
    expect(parseE2eCall('e2e_finish', undefined)).toEqual({});
  });

  it('accepts the limits themselves', () => {
    expect(() => parseE2eCall('e2e_plan', { cases: Array(50).fill(long(200)) })).not.toThrow();
    expect(() => parseE2eCall('e2e_case_start', { index: 50 })).not.toThrow();
    expect(() => parseE2eCall('e2e_finish', { summary: long(4000) })).not.toThrow();
  });
});
