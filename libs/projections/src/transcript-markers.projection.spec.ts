import type { Actor } from '@sessionboxer/domain';
import {
  sessionCreated,
  sessionResumed,
  sessionStopped,
  sessionTitleSet,
} from '../../domain/test/session-fixtures';
import { ProjectionSpecification } from '../test/projection-spec';
import { by, PERSON, recorded } from '../test/recorded-events';
import {
  transcriptMarkerQueries,
  transcriptMarkersProjection,
  type TranscriptMarker,
} from './transcript-markers.projection';

const spec = ProjectionSpecification.for(transcriptMarkersProjection);
const AT = '2026-01-02T03:04:05.000Z';
const AGENT: Actor = { kind: 'agent', sessionId: 'p' };
const texts = (markers: TranscriptMarker[]) => markers.map((m) => m.text);

describe('transcript markers projection', () => {
  describe('no events', () => {
    it('has no markers', () => {
      spec.given([]).thenQuery((r) => transcriptMarkerQueries(r).page('s1'), {
        markers: [],
        next: null,
      });
    });
  });

  describe("one session's actions", () => {
    const events = recorded([
      sessionCreated({ sessionId: 's1' }),
      sessionTitleSet('s1', 'New title', 'Backend tests'),
      by(AGENT, sessionStopped('s1', 'tests pass')),
      sessionResumed('s1'),
      sessionStopped('s1'),
    ]);

    it('writes one marker per action, keyed by event id, at its global position', () => {
      const marker = (position: number, kind: TranscriptMarker['kind'], text: string) => ({
        id: `event-${position}`,
        sessionId: 's1',
        position,
        at: AT,
        actor: PERSON,
        kind,
        text,
        link: null,
      });
      spec.given(events.slice(0, 3)).then({
        'event-1': marker(1, 'session-created', 'created the Session'),
        'event-2': marker(2, 'session-renamed', 'renamed the Session to “New title”'),
        'event-3': {
          ...marker(3, 'session-stopped', 'stopped the Session (tests pass)'),
          actor: AGENT,
        },
      });
    });

    it('pages a session’s markers after a position', () => {
      const queries = (r: Parameters<typeof transcriptMarkerQueries>[0]) => {
        const q = transcriptMarkerQueries(r);
        const first = q.page('s1', { limit: 2 });
        const second = q.page('s1', { after: first.next ?? undefined, limit: 2 });
        const last = q.page('s1', { after: second.next ?? undefined, limit: 2 });
        return [first, second, last].map((p) => ({ texts: texts(p.markers), next: p.next }));
      };
      spec.given(events).thenQuery(queries, [
        { texts: ['created the Session', 'renamed the Session to “New title”'], next: 2 },
        { texts: ['stopped the Session (tests pass)', 'resumed the Session'], next: 4 },
        { texts: ['stopped the Session'], next: null },
      ]);
    });
  });

  describe('a session created by an agent', () => {
    const events = recorded([
      sessionCreated({ sessionId: 'p', title: 'Parent' }),
      by(AGENT, sessionCreated({ sessionId: 'c', title: 'Child', createdBy: { sessionId: 'p' } })),
      by(
        AGENT,
        sessionCreated({
          sessionId: 'f',
          title: 'Fork',
          createdBy: { sessionId: 'p' },
          forkedFrom: { sessionId: 'p', snapshotId: 'snap-1' },
        }),
      ),
    ]);

    it('marks the creating session’s transcript too, linking to the new one', () => {
      spec.given(events).thenQuery(
        (r) => transcriptMarkerQueries(r).page('p').markers,
        [
          expect.objectContaining({ kind: 'session-created', text: 'created the Session' }),
          expect.objectContaining({
            id: 'event-2:creator',
            kind: 'child-session-created',
            text: 'created Session “Child”',
            link: { sessionId: 'c' },
            position: 2,
            actor: AGENT,
          }),
          expect.objectContaining({
            text: 'forked the Session as “Fork”',
            link: { sessionId: 'f' },
          }),
        ],
      );
    });

    it('keeps each session’s markers in its own partition', () => {
      spec
        .given(events)
        .thenQuery(
          (r) => texts(transcriptMarkerQueries(r).page('c').markers),
          ['created the Session'],
        );
    });
  });
});
