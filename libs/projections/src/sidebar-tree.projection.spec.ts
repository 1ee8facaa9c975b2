import {
  sessionCreated,
  sessionResumed,
  sessionStopped,
  sessionTitleSet,
} from '../../domain/test/session-fixtures';
import { ProjectionSpecification } from '../test/projection-spec';
import { recorded } from '../test/recorded-events';
import {
  buildTree,
  sidebarQueries,
  sidebarTreeProjection,
  type SidebarSession,
} from './sidebar-tree.projection';

const spec = ProjectionSpecification.for(sidebarTreeProjection);
const T1 = '2026-01-02T03:04:05.000Z';
const T2 = '2026-01-02T05:00:00.000Z';

function row(id: string, fields: Partial<SidebarSession> = {}): SidebarSession {
  return {
    id,
    title: 'Backend tests',
    status: 'running',
    provider: 'claude-code',
    model: 'claude',
    environment: 'docker-linux',
    createdAt: T1,
    createdBy: null,
    forkedFrom: null,
    parentId: null,
    repos: [],
    branch: null,
    archived: false,
    ...fields,
  };
}

const list = sidebarQueries;

describe('sidebar tree projection', () => {
  describe('no sessions', () => {
    it('lists nothing', () => {
      spec.given([]).thenQuery((r) => list(r).list(), []);
      spec.given([]).thenQuery((r) => list(r).tree(), []);
    });
  });

  describe('a session is created, renamed, stopped and resumed', () => {
    it('keeps one document per session with its latest title and status', () => {
      const events = recorded([
        sessionCreated({ sessionId: 's1' }, T1),
        sessionTitleSet('s1', 'Renamed', 'Backend tests', T2),
        sessionStopped('s1', 'done', T2),
      ]);
      spec.given(events).then({ s1: row('s1', { title: 'Renamed', status: 'stopped' }) });
      const resumed = recorded([sessionCreated(), sessionStopped('s1'), sessionResumed('s1')]);
      spec.given(resumed).thenQuery((r) => list(r).get('s1')?.status, 'running');
    });

    it('lists sessions in creation order, also after the newest one is renamed', () => {
      const events = recorded([
        sessionCreated({ sessionId: 'b' }),
        sessionCreated({ sessionId: 'a' }),
        sessionTitleSet('a', 'A2', 'Backend tests'),
      ]);
      spec.given(events).thenQuery(
        (r) =>
          list(r)
            .list()
            .map((s) => `${s.id}:${s.title}`),
        ['b:Backend tests', 'a:A2'],
      );
    });

    it('ignores events it does not know and events of sessions it never saw', () => {
      const [other] = recorded([sessionCreated()]);
      const foreign = { ...other, type: 'PrAttached', data: { sessionId: 's1' } };
      spec.given([foreign, ...recorded([sessionStopped('ghost')], 2)]).then({});
    });
  });

  describe('a session is archived, unarchived and deleted', () => {
    const at = (type: string, sessionId: string) => ({ type, data: { sessionId, at: T2 } });

    it('marks an archived row and clears the mark when it is unarchived', () => {
      const archived = recorded([sessionCreated(), at('SessionArchived', 's1')] as never);
      spec.given(archived).then({ s1: row('s1', { archived: true }) });
      const back = recorded([
        sessionCreated(),
        at('SessionArchived', 's1'),
        at('SessionUnarchived', 's1'),
      ] as never);
      spec.given(back).then({ s1: row('s1') });
    });

    it('drops a deleted row; its child then shows as a root', () => {
      const events = recorded([
        sessionCreated({ sessionId: 'p' }),
        sessionCreated({ sessionId: 'c', createdBy: { sessionId: 'p' } }),
        at('SessionDeleted', 'p'),
      ] as never);
      spec.given(events).thenQuery(
        (r) =>
          list(r)
            .tree()
            .map((n) => `${n.id}:${n.childOf?.sessionId ?? 'root'}`),
        ['c:root'],
      );
    });
  });

  describe('sessions created by agents and forks', () => {
    const events = recorded([
      sessionCreated({ sessionId: 'p', title: 'Parent' }),
      sessionCreated({ sessionId: 'c', title: 'Child', createdBy: { sessionId: 'p' } }),
      sessionCreated({
        sessionId: 'f',
        title: 'Fork',
        forkedFrom: { sessionId: 'p', snapshotId: 'snap-1' },
      }),
      sessionCreated({ sessionId: 'g', title: 'Grandchild', createdBy: { sessionId: 'c' } }),
      sessionCreated({ sessionId: 'o', title: 'Orphan', createdBy: { sessionId: 'gone' } }),
      sessionTitleSet('p', 'Parent v2', 'Parent'),
    ]);

    it('records the parent: the creating agent, else the fork origin', () => {
      spec.given(events).thenQuery(
        (r) =>
          list(r)
            .list()
            .map((s) => [s.id, s.parentId]),
        [
          ['p', null],
          ['c', 'p'],
          ['f', 'p'],
          ['g', 'c'],
          ['o', 'gone'],
        ],
      );
    });

    it('nests children, each naming its parent by its current title', () => {
      spec.given(events).thenQuery(
        (r) => {
          const [p, o] = list(r).tree();
          const [c, f] = p.children;
          return {
            roots: [p.id, o.id],
            childOf: [p.childOf, c.childOf, f.childOf, c.children[0].childOf, o.childOf],
          };
        },
        {
          roots: ['p', 'o'],
          childOf: [
            null,
            { sessionId: 'p', title: 'Parent v2' },
            { sessionId: 'p', title: 'Parent v2' },
            { sessionId: 'c', title: 'Child' },
            null,
          ],
        },
      );
    });
  });
});

describe('buildTree', () => {
  it('shows every session once, even when parents form a cycle', () => {
    const cycle = [row('a', { parentId: 'b' }), row('b', { parentId: 'a' }), row('r')];
    const tree = buildTree(cycle);
    const ids = (nodes: ReturnType<typeof buildTree>): string[] =>
      nodes.flatMap((n) => [n.id, ...ids(n.children)]);
    expect(ids(tree).sort()).toEqual(['a', 'b', 'r']);
    expect(tree.map((n) => n.id)).toEqual(['r', 'a']);
  });
});
