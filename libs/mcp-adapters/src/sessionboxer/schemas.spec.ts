import { ErrorCode } from '@sessionboxer/domain';
import { isToolCallError, type ToolCallError } from '../kit/call-error';
import { parseCall } from './registry';

/** The refusal parseCall throws for `args`. */
function refusal(tool: string, args: unknown): ToolCallError {
  try {
    parseCall(tool, args);
  } catch (e) {
    if (isToolCallError(e)) return e;
    throw e;
  }
  throw new Error(`${tool} accepted ${JSON.stringify(args)}`);
}

const long = (n: number) => 'x'.repeat(n);

// [tool, arguments, the field named, what the message says]
const refused: [string, unknown, string, RegExp][] = [
  ['title_set', {}, 'title', /title is required/],
  ['session_create', { first_prompt: 'x', repos: ['a/b'] }, 'repos[0]', /a repository name/],
  ['session_create', { first_prompt: 'x', repos: 'app' }, 'repos', /repos/],
  ['title_set', { title: '   ' }, 'title', /title must not be empty/],
  ['title_set', { title: long(201) }, 'title', /title must be at most 200 characters/],
  ['title_set', { title: 'two\nlines' }, 'title', /title must be one line/],
  ['title_set', { title: 42 }, 'title', /title must be a string/],
  ['notify', { text: long(501) }, 'text', /text must be at most 500 characters/],
  ['notify', {}, 'text', /text is required/],
  ['docs', { query: '' }, 'query', /query must not be empty/],
  ['docs', { query: long(501) }, 'query', /query must be at most 500 characters/],
  ['pr_items', { pr: 'octo-org/api' }, 'pr', /pr must be a PR id "owner\/repo#number"/],
  ['pr_items', { pr: 'https://github.com/o/r/pull/1' }, 'pr', /pr must be a PR id/],
  ['pr_mark_addressed', { pr: 'o/r#1', itemIds: [] }, 'itemIds', /at least one item id/],
  [
    'pr_mark_addressed',
    { pr: 'o/r#1', itemIds: Array.from({ length: 101 }, (_, i) => `c${i}`) },
    'itemIds',
    /at most 100 ids/,
  ],
  ['pr_mark_addressed', { pr: 'o/r#1', itemIds: ['ok', 'has space'] }, 'itemIds[1]', /spaces/],
  ['pr_mark_addressed', { pr: 'o/r#1' }, 'itemIds', /itemIds is required/],
  ['terminal_read', { lines: 5 }, 'id', /id is required/],
  ['terminal_read', { id: 't', lines: 0 }, 'lines', /lines must be at least 1/],
  ['terminal_read', { id: 't', lines: 2001 }, 'lines', /lines must be at most 2000/],
  ['terminal_read', { id: 't', lines: 1.5 }, 'lines', /lines must be a whole number/],
  ['terminal_read', { id: 't', lines: '10' }, 'lines', /lines must be a number/],
  ['ui_open', {}, 'pane', /pane is required \(one of transcript, prs, terminal/],
  ['ui_open', { pane: 'settings' }, 'pane', /pane must be one of .* \(got "settings"\)/],
  [
    'ui_open',
    { pane: 'terminal', terminal: { command: long(1001) } },
    'terminal.command',
    /terminal\.command must be at most 1000 characters/,
  ],
  ['ui_open', { pane: 'terminal', terminal: 'npm test' }, 'terminal', /terminal must be an object/],
  [
    'ui_open',
    { pane: 'prs', terminal: { command: 'npm test' } },
    'terminal',
    /terminal\.command only goes with pane "terminal" \(pane is "prs"\)/,
  ],
  ['pr_attach', {}, 'url', /give either url .* or repo \("owner\/name"\) with number/],
  [
    'pr_attach',
    { url: 'https://github.com/o/r/pull/1', repo: 'o/r', number: 1 },
    'repo',
    /url and repo were both given/,
  ],
  [
    'pr_attach',
    { url: 'https://github.com/o/r/pull/1', number: 1 },
    'number',
    /url and number were both given/,
  ],
  ['pr_attach', { repo: 'o/r' }, 'number', /number is required with repo/],
  ['pr_attach', { number: 3 }, 'repo', /repo is required with number/],
  ['pr_attach', { repo: 'just-a-name', number: 3 }, 'repo', /repo must be "owner\/name"/],
  ['pr_attach', { repo: 'o/r', number: 0 }, 'number', /number must be at least 1/],
  [
    'pr_attach',
    { url: 'https://gitlab.com/o/r/-/merge_requests/1' },
    'url',
    /GitHub pull request URL/,
  ],
  ['pr_attach', { url: 'https://github.com/o/r/issues/4' }, 'url', /GitHub pull request URL/],
  ['verify', {}, 'brief', /brief is required/],
  ['verify', { brief: ' ' }, 'brief', /brief must not be empty/],
  ['verify', { brief: long(2001) }, 'brief', /brief must be at most 2000 characters/],
  ['verify', { brief: 'a\u0007b' }, 'brief', /brief must not contain control characters/],
  ['verify', { brief: 'b', cases: [] }, 'cases', /cases must list at least one case/],
  ['verify', { brief: 'b', cases: 'Log in' }, 'cases', /cases must be a list of case titles/],
  ['verify', { brief: 'b', cases: Array(51).fill('c') }, 'cases', /at most 50 cases/],
  ['verify', { brief: 'b', cases: ['ok', 'a\nb'] }, 'cases[1]', /a case title must be one line/],
  ['verify', { brief: 'b', cases: ['ok', long(201)] }, 'cases[1]', /at most 200 characters/],
  [
    'whoami',
    { verbose: true },
    'verbose',
    /verbose is not a parameter of this tool \(it takes no parameters\)/,
  ],
  [
    'title_set',
    { title: 'ok', name: 'x' },
    'name',
    /name is not a parameter of this tool \(it takes title\)/,
  ],
  [
    'ui_open',
    { pane: 'terminal', terminal: { command: 'ls', cwd: '/' } },
    'terminal.cwd',
    /terminal\.cwd is not a field of terminal \(it takes command\)/,
  ],
];

describe('each tool refuses bad arguments with a message naming the tool and the field', () => {
  it.each(refused)('%s %j → %s', (tool, args, field, message) => {
    const error = refusal(tool, args);
    expect(error.code).toBe(ErrorCode.ValidationFailed);
    expect(error.field).toBe(field);
    expect(error.message.startsWith(`${tool}: `)).toBe(true);
    expect(error.message).toMatch(message);
    expect(error.details).toMatchObject({ tool, fields: expect.arrayContaining([]) });
  });

  it('lists every wrong field at once', () => {
    const error = refusal('terminal_read', { id: '', lines: 0 });
    expect(error.issues.map((i) => i.field)).toEqual(['id', 'lines']);
    expect(error.message).toMatch(/id must not be empty; lines must be at least 1/);
  });
});

describe('accepted arguments come back parsed', () => {
  it('trims text and fills in defaults', () => {
    expect(parseCall('title_set', { title: '  Backend tests ' })).toEqual({
      title: 'Backend tests',
    });
    expect(parseCall('terminal_read', { id: 'term-1' })).toEqual({ id: 'term-1', lines: 100 });
    expect(parseCall('whoami', undefined)).toEqual({});
  });

  it('takes both forms of pr_attach, and copied URLs with a tail', () => {
    expect(parseCall('pr_attach', { repo: 'octo-org/api', number: 12 })).toEqual({
      repo: 'octo-org/api',
      number: 12,
    });
    for (const url of [
      'https://github.com/octo-org/api/pull/12',
      'https://github.com/octo-org/api/pull/12/files',
      'https://github.com/octo-org/api/pull/12#issuecomment-1',
    ]) {
      expect(parseCall('pr_attach', { url })).toEqual({ url });
    }
  });

  it('takes terminal.command only with the terminal pane, and a pane alone', () => {
    const args = { pane: 'terminal', terminal: { command: 'npm run dev' } };
    expect(parseCall('ui_open', args)).toEqual(args);
    expect(parseCall('ui_open', { pane: 'prs' })).toEqual({ pane: 'prs' });
  });

  it('accepts the limits themselves', () => {
    expect(() => parseCall('title_set', { title: long(200) })).not.toThrow();
    expect(() => parseCall('notify', { text: long(500) })).not.toThrow();
    expect(() => parseCall('docs', { query: long(500) })).not.toThrow();
    expect(() => parseCall('terminal_read', { id: 't', lines: 2000 })).not.toThrow();
    const ids = Array.from({ length: 100 }, (_, i) => `c${i}`);
    expect(() => parseCall('pr_mark_addressed', { pr: 'o/r#1', itemIds: ids })).not.toThrow();
  });
});
