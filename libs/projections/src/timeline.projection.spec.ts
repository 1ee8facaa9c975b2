import { boxEvent, boxProvisioned } from '../../domain/test/box-fixtures';
import {
  agentMessaged,
  conversationStarted,
  toolCalled,
  turnFinished,
  turnStarted,
} from '../../domain/test/conversation-fixtures';
import { snapshotTaken } from '../../domain/test/session-activity-fixtures';
import { sessionCreated, sessionTitleSet } from '../../domain/test/session-fixtures';
import type { EgressRefused, SessionEvent } from '@sessionboxer/domain';
import { ProjectionSpecification } from '../test/projection-spec';
import { by, PERSON, recorded } from '../test/recorded-events';
import type { ReadModelReader } from './store/read-model-store';
import { timelineProjection, timelineQueries } from './timeline.projection';

const spec = ProjectionSpecification.for(timelineProjection);
const AT = '2026-01-02T03:04:05.000Z';
const AGENT = { kind: 'agent' as const, sessionId: 'c1' };
// The conversation fixtures' conversation is c1: a session's own conversation has its id.
const S = 'c1';
const refused: EgressRefused = {
  type: 'EgressRefused',
  data: { sessionId: S, host: 'evil.test', port: 443, code: 'not_allowed', reason: 'no', at: AT },
};
const turnSnapshot: SessionEvent = {
  type: 'TurnSnapshotTaken',
  data: {
    sessionId: S,
    snapshotId: 'snap-t1',
    turn: 1,
    conversationPosition: 8,
    sizeBytes: 10,
    files: 2,
    newBytes: 4,
    at: AT,
  },
};

const events = recorded([
  sessionCreated({ sessionId: S }),
  boxProvisioned({ sessionId: S }),
  sessionCreated({ sessionId: 'other' }),
  conversationStarted(),
  turnStarted(1, 1, 'p1', { text: 'hello' }),
  by(AGENT, toolCalled(1, 2, 'call-1', 'mcp__sessionboxer__title_set')),
  by(AGENT, sessionTitleSet(S, 'New', 'Old')),
  by(AGENT, agentMessaged(1, 3, 'done')),
  turnFinished(1, 4),
  by({ kind: 'system', id: 'turn-snapshots' }, turnSnapshot),
  by(AGENT, refused as unknown as SessionEvent),
  snapshotTaken(S, 'snap-a', 1),
  boxEvent('BoxFrozen', S),
]);

const page =
  (filter: Parameters<ReturnType<typeof timelineQueries>['page']>[1]) => (r: ReadModelReader) =>
    timelineQueries(r)
      .page(S, filter)
      .entries.map((e) => `${e.position}:${e.kind}:${e.type}`);

describe('timeline projection', () => {
  it("puts one session's events of every layer in one order, another's never", () => {
    spec
      .given(events)
      .thenQuery(page({}), [
        '1:command:SessionCreated',
        '2:box:BoxProvisioned',
        '5:turn:TurnStarted',
        '6:tool_call:AgentToolCalled',
        '7:marker:SessionTitleSet',
        '8:turn:AgentMessaged',
        '9:turn:TurnFinished',
        '10:snapshot:TurnSnapshotTaken',
        '11:egress:EgressRefused',
        '12:snapshot:SnapshotTaken',
        '13:box:BoxFrozen',
      ]);
  });

  it('filters by kinds and by actor, by kind of actor or by one actor', () => {
    spec
      .given(events)
      .thenQuery(page({ kinds: ['snapshot', 'egress'] }), [
        '10:snapshot:TurnSnapshotTaken',
        '11:egress:EgressRefused',
        '12:snapshot:SnapshotTaken',
      ]);
    spec
      .given(events)
      .thenQuery(page({ actor: 'agent:c1' }), [
        '6:tool_call:AgentToolCalled',
        '7:marker:SessionTitleSet',
        '8:turn:AgentMessaged',
        '11:egress:EgressRefused',
      ]);
    spec
      .given(events)
      .thenQuery(page({ actor: 'system', kinds: ['snapshot'] }), ['10:snapshot:TurnSnapshotTaken']);
  });

  it('pages after a position, and says where the next page starts', () => {
    spec
      .given(events)
      .thenQuery(
        (r) => timelineQueries(r).page(S, { after: 6, limit: 2, kinds: ['turn', 'marker'] }),
        {
          entries: [
            expect.objectContaining({ position: 7, summary: 'renamed the Session to “New”' }),
            expect.objectContaining({ position: 8, actor: AGENT, turn: 1 }),
          ],
          next: 8,
        },
      );
  });

  it('links each entry to the pane that shows it, with who caused it', () => {
    spec
      .given(events)
      .thenQuery((r) => timelineQueries(r).page(S, { kinds: ['snapshot'] }).entries[0], {
        position: 10,
        at: AT,
        kind: 'snapshot',
        type: 'TurnSnapshotTaken',
        actor: { kind: 'system', id: 'turn-snapshots' },
        commandId: 'cmd-10',
        summary: 'snapshot of turn 1 (2 files, 4 new bytes)',
        turn: 1,
        link: { pane: 'snapshots', snapshotId: 'snap-t1' },
      });
    spec
      .given(events)
      .thenQuery(
        (r) => timelineQueries(r).page(S, { actor: 'person', limit: 1 }).entries[0].actor,
        PERSON,
      );
  });
});
