import { ErrorCode } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import {
  createSession,
  meta,
  sessionCreated,
  sessionStopped,
  setTitle,
} from '../../test/session-fixtures';
import { titleProblem } from '../limits';
import type { SessionCommand } from './session.commands';
import type { SessionEvent } from './session.events';
import { sessionDecider } from './session.decider';

const spec = DeciderSpecification.for(sessionDecider);
const AGENT = { kind: 'agent', sessionId: 'parent' } as const;

type Manage = 'ArchiveSession' | 'UnarchiveSession' | 'DeleteSession';
const command = (type: Manage, actor = meta().actor): SessionCommand => ({
  type,
  data: { sessionId: 's1' },
  metadata: meta({ actor }),
});
const event = (type: 'SessionArchived' | 'SessionUnarchived' | 'SessionDeleted'): SessionEvent => ({
  type,
  data: { sessionId: 's1', at: meta().at },
});

describe('session decider: archive, unarchive, delete', () => {
  it('archives a session once; archiving it again records nothing', () => {
    spec
      .given([sessionCreated()])
      .when(command('ArchiveSession'))
      .then([event('SessionArchived')]);
    const archived = [sessionCreated(), event('SessionArchived')];
    spec.given(archived).when(command('ArchiveSession')).thenNothing();
  });

  it('unarchives only an archived session', () => {
    const archived = [sessionCreated(), event('SessionArchived')];
    spec
      .given(archived)
      .when(command('UnarchiveSession'))
      .then([event('SessionUnarchived')]);
    spec.given([sessionCreated()]).when(command('UnarchiveSession')).thenNothing();
  });

  it('refuses to delete a running session, naming why', () => {
    spec
      .given([sessionCreated()])
      .when(command('DeleteSession'))
      .thenThrows(ErrorCode.InvalidState, 'session s1 is running: stop it before deleting it');
  });

  it('deletes a stopped session; afterwards it is gone for every command', () => {
    const stopped = [sessionCreated(), sessionStopped('s1')];
    spec
      .given(stopped)
      .when(command('DeleteSession'))
      .then([event('SessionDeleted')]);
    const deleted = [...stopped, event('SessionDeleted')];
    spec
      .given(deleted)
      .when(command('DeleteSession'))
      .thenThrows(ErrorCode.NotFound, /deleted/);
    spec
      .given(deleted)
      .when(command('ArchiveSession'))
      .thenThrows(ErrorCode.NotFound, /deleted/);
    spec.given(deleted).when(createSession()).thenThrows(ErrorCode.AlreadyExists);
  });

  it('leaves archiving and deleting to a person', () => {
    const stopped = [sessionCreated(), sessionStopped('s1')];
    for (const type of ['ArchiveSession', 'DeleteSession'] as const) {
      spec
        .given(stopped)
        .when(command(type, AGENT))
        .thenThrows(ErrorCode.Forbidden, /person/);
    }
  });

  it('refuses an absent session', () => {
    spec
      .given([])
      .when(command('ArchiveSession'))
      .thenThrows(ErrorCode.NotFound, /does not exist/);
  });
});

describe('titleProblem, the rule the web UI checks a rename with', () => {
  it.each(['', '   ', 'x'.repeat(201), 'two\nlines', 'Fine title', '😀'.repeat(200)])(
    'says what the decider says for %j',
    (title) => {
      const state = sessionDecider.evolve(sessionDecider.initialState, sessionCreated());
      const refusal = (() => {
        try {
          sessionDecider.decide(setTitle('s1', title), state);
          return null;
        } catch (e) {
          return (e as Error).message;
        }
      })();
      expect(titleProblem(title)).toBe(refusal);
    },
  );
});
