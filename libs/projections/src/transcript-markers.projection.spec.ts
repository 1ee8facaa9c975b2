import type { Actor } from '@sessionboxer/domain';
import {
  sessionCreated,
  sessionResumed,
  sessionStopped,
  sessionTitleSet,
} from '../../domain/test/session-fixtures';
import { boxEvent, boxProvisioned } from '../../domain/test/box-fixtures';
import { PR_URL, prAttached, prItemReceived, reviewComment } from '../../domain/test/pr-fixtures';
import {
  notificationSent,
  paneRequested,
  sessionReverted,
  snapshotTaken,
  terminalExited,
  terminalOpened,
} from '../../domain/test/session-activity-fixtures';
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
        // The session's title as of now, for "sent a message to …" in other transcripts.
        'title/s1': { titleOf: 's1', title: 'New title' },
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

  describe("a session's snapshots, PRs, notifications, panes and box", () => {
    const events = recorded([
      sessionCreated({ sessionId: 's1' }),
      by(AGENT, snapshotTaken('s1', 'snap-a', 1)),
      by(AGENT, snapshotTaken('s1', 'snap-b', 2)),
      sessionReverted('s1', 'snap-a', 1),
      by(AGENT, prAttached()),
      prItemReceived(reviewComment('c1')),
      by(AGENT, notificationSent('s1', 'n1', 'Tests pass, ready for review')),
      notificationSent('s1', 'n2', 'grace commented on #12', 'pr'),
      by(AGENT, terminalOpened('s1', 't1', ['sh', '-c', 'npm run dev'])),
      by(AGENT, paneRequested('s1', 'terminal', { terminalId: 't1', command: 'npm run dev' })),
      by(AGENT, paneRequested('s1', 'prs')),
      by(AGENT, paneRequested('s1', 'autoqa', { shown: false })),
      terminalExited('s1', 't1', 0),
      boxProvisioned(),
      boxEvent('BoxReady'),
      boxEvent('BoxFailed', 's1', 'daemon exited with code 1'),
    ]);
    const markers = (r: Parameters<typeof transcriptMarkerQueries>[0]) =>
      transcriptMarkerQueries(r)
        .page('s1')
        .markers.map((m) => [m.kind, m.text, m.link]);

    it('writes the spec’s marker texts, each linking to what it names', () => {
      spec.given(events).thenQuery(markers, [
        ['session-created', 'created the Session', null],
        ['snapshot-taken', 'took Snapshot 1', { snapshotId: 'snap-a' }],
        ['snapshot-taken', 'took Snapshot 2', { snapshotId: 'snap-b' }],
        ['session-reverted', 'reverted the Session to Snapshot 1', { snapshotId: 'snap-a' }],
        ['pr-attached', 'attached PR #12 (acme/api)', { url: PR_URL }],
        ['notified', 'notified you: Tests pass, ready for review', null],
        ['terminal-opened', 'opened a Terminal running npm run dev', { terminalId: 't1' }],
        ['pane-opened', 'opened the PRs pane', null],
        ['box-failed', 'the box failed: daemon exited with code 1', null],
      ]);
    });

    it('marks who did it and where', () => {
      spec
        .given(events)
        .thenQuery(
          (r) => transcriptMarkerQueries(r).page('s1').markers[1],
          expect.objectContaining({ id: 'event-2', position: 2, actor: AGENT, at: AT }),
        );
    });

    it('names each pane as the page does, and links an existing Terminal it shows', () => {
      const panes = recorded([
        sessionCreated({ sessionId: 's1' }),
        terminalOpened('s1', 't1'),
        paneRequested('s1', 'transcript'),
        paneRequested('s1', 'snapshots'),
        paneRequested('s1', 'autoqa'),
        paneRequested('s1', 'desktop'),
        paneRequested('s1', 'files'),
        paneRequested('s1', 'terminal', { terminalId: 't1' }),
      ]);
      spec.given(panes).thenQuery(
        (r) => markers(r).slice(1),
        [
          ['pane-opened', 'opened the Transcript pane', null],
          ['pane-opened', 'opened the Snapshots pane', null],
          ['pane-opened', 'opened the Auto QA pane', null],
          ['pane-opened', 'opened the Desktop pane', null],
          ['pane-opened', 'opened the Files pane', null],
          ['pane-opened', 'opened the Terminal pane', { terminalId: 't1' }],
        ],
      );
    });

    it('marks a Terminal started for a command even when no browser showed it', () => {
      const unseen = recorded([
        sessionCreated({ sessionId: 's1' }),
        terminalOpened('s1', 't1'),
        paneRequested('s1', 'terminal', { terminalId: 't1', command: 'make test', shown: false }),
      ]);
      spec
        .given(unseen)
        .thenQuery(
          (r) => markers(r)[1],
          ['terminal-opened', 'opened a Terminal running make test', { terminalId: 't1' }],
        );
    });
  });
});
