import { ErrorCode } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import {
  AT,
  createSession,
  resumeSession,
  sessionCreated,
  sessionResumed,
  sessionStopped,
  sessionTitleSet,
  setTitle,
  stopSession,
} from '../../test/session-fixtures';
import { sessionDecider, sessionStream } from './session.decider';

const spec = DeciderSpecification.for(sessionDecider);
const LATER = '2026-01-02T04:00:00.000Z';

describe('session decider', () => {
  describe('no session', () => {
    const given = spec.given([]);

    it('creates a session, trimming the title and stamping the command time', () => {
      given
        .when(createSession({ title: '  Backend tests  ' }))
        .then([sessionCreated({ title: 'Backend tests' })]);
    });

    it('records the creating agent and the fork origin', () => {
      const data = {
        createdBy: { sessionId: 'parent' },
        forkedFrom: { sessionId: 'parent', snapshotId: 'snap-3' },
        environment: 'qemu-macos' as const,
      };
      given.when(createSession(data)).then([sessionCreated(data)]);
    });

    it.each([
      ['empty', '   ', /must not be empty/],
      ['too long', 'x'.repeat(201), /at most 200 characters \(it has 201\)/],
      ['a newline', 'one\ntwo', /control characters/],
      ['a tab', 'one\ttwo', /control characters/],
      ['a line separator', 'one\u2028two', /control characters/],
    ])('refuses a title that is %s', (_case, title, why) => {
      given.when(createSession({ title })).thenThrows(ErrorCode.ValidationFailed, why);
    });

    it('records its repositories and its own branch in them (none: no branch)', () => {
      const sessionId = '0123abcd-0000-4000-8000-000000000000';
      given.when(createSession({ sessionId, repos: ['app', 'api.v2'] })).then([
        {
          type: 'SessionCreated',
          data: {
            ...createSession({ sessionId }).data,
            repos: ['app', 'api.v2'],
            branch: 'sessionboxer/0123abcd',
            at: AT,
          },
        },
      ]);
      expect(sessionCreated().data).toMatchObject({ repos: [], branch: null });
    });

    it.each([
      ['repos that is no list', { repos: 'app' }, /repos must be a list/],
      ['a repo name with a slash', { repos: ['a/b'] }, /repos\[0\] must be a folder name/],
      ['a repo twice', { repos: ['app', 'app'] }, /repos names app twice/],
      ['too many repos', { repos: Array.from({ length: 21 }, (_, i) => `r${i}`) }, /at most 20/],
    ])('refuses %s', (_case, data, why) => {
      const command = createSession(data as Parameters<typeof createSession>[0]);
      given.when(command).thenThrows(ErrorCode.ValidationFailed, why);
    });

    it('counts characters, not UTF-16 units: 200 emoji fit', () => {
      const title = '🚀'.repeat(200);
      given.when(createSession({ title })).then([sessionCreated({ title })]);
    });

    it.each([
      ['a blank provider', { provider: ' ' }, /provider must be one of claude-code, opencode/],
      ['a provider no harness runs', { provider: 'docker-linux' }, /provider must be one of/],
      ['a blank model', { model: '' }, /model must be a model name/],
      ['a model no CLI takes', { model: 'gpt 4' }, /model must be a model name/],
      ['an unknown environment', { environment: 'wasm' }, /environment must be one of/],
      ['an empty id', { sessionId: '' }, /sessionId must not be empty/],
      ['an id with spaces around it', { sessionId: ' s1' }, /whitespace/],
      ['an id holding half an emoji', { sessionId: 's\uD83D' }, /sessionId must be valid Unicode/],
      ['itself as its creator', { createdBy: { sessionId: 's1' } }, /created by itself/],
      ['a missing createdBy', { createdBy: undefined }, /createdBy must be/],
      ['a fork without snapshot', { forkedFrom: { sessionId: 'p' } }, /snapshotId/],
    ])('refuses %s', (_case, data, why) => {
      const command = createSession(data as Parameters<typeof createSession>[0]);
      given.when(command).thenThrows(ErrorCode.ValidationFailed, why);
    });

    it.each([
      ['renamed', setTitle('s1', 'New')],
      ['stopped', stopSession('s1')],
      ['resumed', resumeSession('s1')],
    ])('cannot be %s', (_case, command) => {
      given.when(command).thenThrows(ErrorCode.NotFound, 'session s1 does not exist');
    });
  });

  describe('running', () => {
    const given = spec.given([sessionCreated()]);

    it('is stopped by the agent that created it, and by no other agent, nor by itself', () => {
      const child = spec.given([sessionCreated({ createdBy: { sessionId: 'parent' } })]);
      const by = (sessionId: string) => {
        const command = stopSession('s1');
        command.metadata.actor = { kind: 'agent', sessionId };
        return command;
      };
      child.when(by('parent')).then([sessionStopped('s1', null)]);
      child
        .when(by('stranger'))
        .thenThrows(
          ErrorCode.Forbidden,
          /not yours to stop: an agent stops only the sessions it created/,
        );
      child
        .when(by('s1'))
        .thenThrows(ErrorCode.Forbidden, /cannot stop itself: end your turn instead/);
      given.when(by('parent')).thenThrows(ErrorCode.Forbidden, /not yours to stop/);
    });

    it('cannot be created twice', () => {
      given.when(createSession()).thenThrows(ErrorCode.AlreadyExists, /already exists/);
    });

    it('is renamed, remembering the previous title', () => {
      given
        .when(setTitle('s1', ' Frontend ', LATER))
        .then([sessionTitleSet('s1', 'Frontend', 'Backend tests', LATER)]);
    });

    it('ignores a rename to the title it already has', () => {
      given.when(setTitle('s1', 'Backend tests ')).thenNothing();
    });

    it('refuses an invalid new title', () => {
      given.when(setTitle('s1', '')).thenThrows(ErrorCode.ValidationFailed, /title/);
    });

    it('is stopped, with or without a reason', () => {
      given.when(stopSession('s1', ' done ')).then([sessionStopped('s1', 'done')]);
      given.when(stopSession('s1', '  ')).then([sessionStopped('s1', null)]);
      given.when(stopSession('s1')).then([sessionStopped('s1', null, AT)]);
    });

    it('cannot be resumed', () => {
      given.when(resumeSession('s1')).thenThrows(ErrorCode.InvalidState, /already running/);
    });

    it('sees its latest title after renames', () => {
      spec
        .given([sessionCreated(), sessionTitleSet('s1', 'B', 'Backend tests')])
        .when(setTitle('s1', 'B'))
        .thenNothing();
    });
  });

  describe('stopped', () => {
    const given = spec.given([sessionCreated(), sessionStopped('s1')]);

    it('cannot be stopped again', () => {
      given.when(stopSession('s1')).thenThrows(ErrorCode.InvalidState, 'already stopped');
    });

    it('is resumed', () => {
      given.when(resumeSession('s1', LATER)).then([sessionResumed('s1', LATER)]);
    });

    it('can still be renamed', () => {
      given
        .when(setTitle('s1', 'Archived'))
        .then([sessionTitleSet('s1', 'Archived', 'Backend tests')]);
    });

    it('runs again after a resume, so a second stop is accepted', () => {
      spec
        .given([sessionCreated(), sessionStopped('s1'), sessionResumed('s1')])
        .when(stopSession('s1'))
        .then([sessionStopped('s1')]);
    });
  });
});

describe('sessionStream', () => {
  it('names the stream category-id, so $ce-session groups them', () => {
    expect(sessionStream('3f2a-11')).toBe('session-3f2a-11');
  });

  it('refuses an empty id', () => {
    expect(() => sessionStream('')).toThrow(/sessionId must not be empty/);
  });
});
