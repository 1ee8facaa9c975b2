import { notificationSent } from '../../domain/test/session-activity-fixtures';
import { sessionCreated } from '../../domain/test/session-fixtures';
import { ProjectionSpecification } from '../test/projection-spec';
import { recorded } from '../test/recorded-events';
import { inboxProjection, inboxQueries } from './inbox.projection';

const spec = ProjectionSpecification.for(inboxProjection);
const AT = '2026-01-02T03:04:05.000Z';
const NOW = '2026-01-02T03:05:00.000Z';

const asked = (approvalId: string, expiresAt = '2026-01-02T04:00:00.000Z') => ({
  type: 'ApprovalRequested',
  data: {
    approvalId,
    kind: 'session',
    sessionId: 's2',
    summary: 'Create X',
    payload: {},
    expiresAt,
    at: AT,
  },
});
const answered = (approvalId: string) => ({
  type: 'ApprovalAnswered',
  data: { approvalId, sessionId: 's2', allowed: true, by: { kind: 'person', id: 'ada' }, at: AT },
});
const read = (userId: string, itemIds: string[]) => ({
  type: 'InboxItemsRead',
  data: { userId, itemIds, at: AT },
});
const conv = (conversationId: string, sessionId: string) => ({
  type: 'ConversationStarted',
  data: {
    conversationId,
    owner: { kind: 'session', sessionId },
    harness: 'x',
    model: 'default',
    at: AT,
  },
});
const turn = (conversationId: string, n: number, status: string) => ({
  type: 'TurnFinished',
  data: {
    conversationId,
    seq: n,
    turn: n,
    at: AT,
    status,
    input_tokens: 0,
    output_tokens: 0,
    usage: null,
    context: null,
  },
});

const events = (list: unknown[]) => recorded(list as Parameters<typeof recorded>[0]);
const of = (userId: string) => (r: Parameters<typeof inboxQueries>[0]) => {
  const p = inboxQueries(r).forUser(userId, NOW);
  return {
    ids: p.items.map((i) => [i.id, i.sessionTitle, i.read]),
    unread: p.unreadCount,
    by: p.unreadBySession,
  };
};

describe('inbox projection', () => {
  const base = [
    sessionCreated(),
    sessionCreated({ sessionId: 's2', title: 'B' }),
    notificationSent('s2', 'n1', 'Look'),
    asked('a1'),
  ];

  it('lists notifications and pending approvals across sessions, newest first, unread', () => {
    spec.given(events(base)).thenQuery(of('ada'), {
      ids: [
        ['approval:a1', 'B', false],
        ['notification:n1', 'B', false],
      ],
      unread: 2,
      by: { s2: 2 },
    });
  });

  it('drops an answered or expired approval', () => {
    spec.given(events([...base, answered('a1'), asked('a2', AT)])).thenQuery(of('ada'), {
      ids: [['notification:n1', 'B', false]],
      unread: 1,
      by: { s2: 1 },
    });
  });

  it("leaves out a deleted session's items", () => {
    const deleted = { type: 'SessionDeleted', data: { sessionId: 's2', at: AT } };
    spec.given(events([...base, deleted])).thenQuery(of('ada'), { ids: [], unread: 0, by: {} });
    spec
      .given(events([...base, deleted]))
      .thenQuery((r) => inboxQueries(r).item('notification:n1'), null);
  });

  it('keeps read state per person', () => {
    const given = events([...base, read('ada', ['notification:n1'])]);
    spec.given(given).thenQuery(of('ada'), {
      ids: [
        ['approval:a1', 'B', false],
        ['notification:n1', 'B', true],
      ],
      unread: 1,
      by: { s2: 1 },
    });
    spec.given(given).thenQuery((r) => of('bob')(r).unread, 2);
  });

  it('lists a failed turn under its session, not a finished one', () => {
    const given = events([
      sessionCreated(),
      conv('c1', 's1'),
      turn('c1', 1, 'finished'),
      turn('c1', 2, 'failed'),
    ]);
    spec.given(given).thenQuery((r) => of('ada')(r).ids.map((i) => i[0]), ['turn:c1-2']);
  });
});
