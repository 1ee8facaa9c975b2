import { notificationSent, snapshotTaken } from '../../domain/test/session-activity-fixtures';
import { sessionCreated } from '../../domain/test/session-fixtures';
import { ProjectionSpecification } from '../test/projection-spec';
import { recorded } from '../test/recorded-events';
import { notificationQueries, notificationsProjection } from './notifications.projection';

const spec = ProjectionSpecification.for(notificationsProjection);
const AT = '2026-01-02T03:04:05.000Z';

describe('notifications projection', () => {
  describe('no notifications', () => {
    it('pages nothing', () => {
      spec
        .given(recorded([sessionCreated(), snapshotTaken('s1', 'x', 1)]))
        .thenQuery((r) => notificationQueries(r).page('s1'), { notifications: [], next: null });
    });
  });

  describe('notifications of two sessions', () => {
    const events = recorded([
      sessionCreated(),
      sessionCreated({ sessionId: 's2' }),
      notificationSent('s1', 'n1', 'Tests pass'),
      notificationSent('s2', 'n1', 'Other session'),
      notificationSent('s1', 'n2', 'Review comment on #12', 'pr'),
      notificationSent('s1', 'n3', 'Box restarted', 'system'),
    ]);

    it('keeps one unread document per notification', () => {
      spec.given(events).thenQuery((r) => notificationQueries(r).page('s1', { limit: 1 }), {
        notifications: [
          { id: 'n1', sessionId: 's1', text: 'Tests pass', source: 'agent', at: AT, read: false },
        ],
        next: 3,
      });
    });

    it("pages a session's notifications oldest first, after a position", () => {
      const pages = (r: Parameters<typeof notificationQueries>[0]) => {
        const q = notificationQueries(r);
        const first = q.page('s1', { limit: 2 });
        const second = q.page('s1', { after: first.next ?? undefined, limit: 2 });
        return [first, second].map((p) => ({
          ids: p.notifications.map((n) => n.id),
          next: p.next,
        }));
      };
      spec.given(events).thenQuery(pages, [
        { ids: ['n1', 'n2'], next: 5 },
        { ids: ['n3'], next: null },
      ]);
    });

    it('caps a page at 500 and takes at least 1', () => {
      spec
        .given(events)
        .thenQuery((r) => notificationQueries(r).page('s1', { limit: 0 }).notifications.length, 1);
      spec
        .given(events)
        .thenQuery((r) => notificationQueries(r).page('s2', { limit: 10_000 }).next, null);
    });
  });
});
