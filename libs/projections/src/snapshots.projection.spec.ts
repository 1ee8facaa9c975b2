import { sessionReverted, snapshotTaken } from '../../domain/test/session-activity-fixtures';
import { sessionCreated } from '../../domain/test/session-fixtures';
import type { SnapshotResult } from '@sessionboxer/mcp-adapters';
import { ProjectionSpecification } from '../test/projection-spec';
import { recorded } from '../test/recorded-events';
import { snapshotQueries, snapshotsProjection, type SnapshotDoc } from './snapshots.projection';

const spec = ProjectionSpecification.for(snapshotsProjection);
const T2 = '2026-01-02T05:00:00.000Z';
const AT = '2026-01-02T03:04:05.000Z';

describe('snapshots projection', () => {
  describe('no snapshots', () => {
    it('lists none and finds none', () => {
      const events = recorded([sessionCreated()]);
      spec.given(events).thenQuery((r) => snapshotQueries(r).list('s1'), []);
      spec.given(events).thenQuery((r) => snapshotQueries(r).get('s1', 'snap-a'), null);
    });
  });

  describe('snapshots of two sessions', () => {
    const events = recorded([
      sessionCreated(),
      sessionCreated({ sessionId: 's2' }),
      snapshotTaken('s1', 'snap-a', 1, { sizeBytes: 100, conversationPosition: null }),
      snapshotTaken('s2', 'snap-a', 1, { sizeBytes: 7 }),
      snapshotTaken('s1', 'snap-b', 2, { sizeBytes: 200, conversationPosition: 42 }, T2),
      sessionReverted('s1', 'snap-a', 1),
    ]);

    it('keeps one document per snapshot, with what the snapshot tool answers', () => {
      spec.given(events).thenQuery((r) => snapshotQueries(r).get('s1', 'snap-b'), {
        id: 'snap-b',
        sessionId: 's1',
        ordinal: 2,
        sizeBytes: 200,
        createdAt: T2,
        conversationPosition: 42,
      });
    });

    it("lists a session's snapshots by ordinal, never another session's", () => {
      spec.given(events).thenQuery(
        (r) =>
          snapshotQueries(r)
            .list('s1')
            .map((s) => [s.id, s.ordinal, s.createdAt]),
        [
          ['snap-a', 1, AT],
          ['snap-b', 2, T2],
        ],
      );
      spec.given(events).thenQuery(
        (r) =>
          snapshotQueries(r)
            .list('s2')
            .map((s) => s.sizeBytes),
        [7],
      );
    });

    it('keeps ids apart even when they contain the separator or its escape', () => {
      const tricky = recorded([
        sessionCreated({ sessionId: 'a/b' }),
        sessionCreated({ sessionId: 'a' }),
        sessionCreated({ sessionId: 'a%2Fb' }),
        snapshotTaken('a/b', 'c', 1),
        snapshotTaken('a', 'b/c', 1),
        snapshotTaken('a%2Fb', 'c', 1),
      ]);
      const find = (r: Parameters<typeof snapshotQueries>[0]) => [
        snapshotQueries(r).get('a/b', 'c')?.sessionId,
        snapshotQueries(r).get('a', 'b/c')?.sessionId,
        snapshotQueries(r).get('a%2Fb', 'c')?.sessionId,
      ];
      spec.given(tricky).thenQuery(find, ['a/b', 'a', 'a%2Fb']);
    });
  });

  it('serves the snapshot tool’s SnapshotResult', () => {
    const doc: SnapshotDoc = {
      id: 'a',
      sessionId: 's1',
      ordinal: 1,
      sizeBytes: 1,
      createdAt: AT,
      conversationPosition: null,
    };
    const result: SnapshotResult = doc;
    expect(result.ordinal).toBe(1);
  });
});
