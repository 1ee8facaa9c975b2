import type { Actor } from '@sessionboxer/domain';
import { sessionCreated } from '../../domain/test/session-fixtures';
import { conversationScript, second, sessionOwner } from '../test/conversation-fixtures';
import { ProjectionSpecification } from '../test/projection-spec';
import { by, PERSON, recorded } from '../test/recorded-events';
import {
  transcriptMarkerQueries,
  transcriptMarkersProjection,
  type TranscriptMarker,
} from './transcript-markers.projection';

// The markers' projection's handling of conversation events (conversation-markers.ts).
const spec = ProjectionSpecification.for(transcriptMarkersProjection);
const AGENT: Actor = { kind: 'agent', sessionId: 's1' };
const texts = (markers: TranscriptMarker[]) => markers.map((m) => m.text);

describe('transcript markers of conversations', () => {
  describe("a session's conversations", () => {
    const own = conversationScript('c1', sessionOwner('s1'));
    const sandbox = conversationScript('s1', { kind: 'sandbox', sandboxId: 's1' });
    const events = recorded([
      sessionCreated({ sessionId: 's1' }),
      own.started(),
      own.turn(1, 'p1', 'Start the work'),
      own.queued(2, 'p2', 'Then\nrun   the\r\n\ntests'),
      by(AGENT, own.queued(3, 'p3', `${'x'.repeat(78)}😀😀 and more`, AGENT)),
      sandbox.started(),
      sandbox.queued(4, 'p4', 'A sandbox prompt'),
      own.dropped(5, 'p2', 'Then\nrun   the\r\n\ntests'),
    ]);

    it('marks a queued prompt in its owner session’s transcript, on one line and cut at 80', () => {
      spec.given(events).thenQuery(
        (r) => transcriptMarkerQueries(r).page('s1').markers.slice(1),
        [
          {
            id: 'event-4',
            sessionId: 's1',
            position: 4,
            at: second(2),
            actor: PERSON,
            kind: 'prompt-queued',
            text: 'queued a message (“Then run the tests”)',
            link: null,
          },
          expect.objectContaining({
            actor: AGENT,
            text: `queued a message (“${'x'.repeat(78)}😀…”)`,
          }),
        ],
      );
    });

    it('marks no turn nor drop, and lists neither its index nor a sandbox’s prompts', () => {
      spec
        .given(events)
        .thenQuery(
          (r) => ['s1', 'c1', ''].map((s) => texts(transcriptMarkerQueries(r).page(s).markers)),
          [
            ['created the Session', 'queued a message (“Then run the tests”)', expect.any(String)],
            [],
            [],
          ],
        );
    });
  });
});
