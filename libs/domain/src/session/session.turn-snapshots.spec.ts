import { ErrorCode } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import { meta, sessionCreated } from '../../test/session-fixtures';
import { snapshotTaken } from '../../test/session-activity-fixtures';
import type { RewindToTurn, TakeTurnSnapshot, TurnSnapshotTaken } from './index';
import { sessionDecider } from './session.decider';

const spec = DeciderSpecification.for(sessionDecider);
const AT = '2026-01-02T04:00:00.000Z';
const DATA = { conversationPosition: 40, sizeBytes: 2_000, files: 12, newBytes: 30 };

const take = (turn: number, snapshotId = `t${turn}`, data: object = {}): TakeTurnSnapshot => ({
  type: 'TakeTurnSnapshot',
  data: { sessionId: 's1', snapshotId, turn, ...DATA, ...data },
  metadata: meta({ at: AT }),
});
const taken = (turn: number, snapshotId = `t${turn}`): TurnSnapshotTaken => ({
  type: 'TurnSnapshotTaken',
  data: { sessionId: 's1', snapshotId, turn, ...DATA, at: AT },
});
const rewind = (turn: number): RewindToTurn => ({
  type: 'RewindToTurn',
  data: { sessionId: 's1', turn },
  metadata: meta({ at: AT }),
});

describe('turn snapshots', () => {
  describe('no session', () => {
    it('cannot take one', () => {
      spec.given([]).when(take(1)).thenThrows(ErrorCode.NotFound, 'session s1 does not exist');
    });
  });

  describe('a session with no turn snapshot yet', () => {
    const given = spec.given([sessionCreated()]);

    it("records the turn's snapshot with its files and what it added", () => {
      given.when(take(1)).then([taken(1)]);
    });

    it.each([
      ['turn 0', { turn: 0 }, /turn must be between 1/],
      ['a fractional file count', { files: 1.5 }, /files must be a whole number/],
      ['negative new bytes', { newBytes: -1 }, /newBytes must be between 0/],
      ['no position', { conversationPosition: null }, /conversationPosition must be a whole/],
    ])('refuses %s', (_case, data, why) => {
      const command = { ...take(1), data: { ...take(1).data, ...data } } as TakeTurnSnapshot;
      given.when(command).thenThrows(ErrorCode.ValidationFailed, why);
    });

    it('cannot rewind to a turn without one', () => {
      given
        .when(rewind(2))
        .thenThrows(ErrorCode.NotFound, /no snapshot of turn 2 \(turns with one: none yet\)/);
    });

    it('refuses a Windows session: its VM disk is outside the box', () => {
      spec
        .given([sessionCreated({ environment: 'qemu-windows' })])
        .when(take(1))
        .thenThrows(ErrorCode.InvalidState, /not available in Windows and macOS/);
    });
  });

  describe('turns 1 and 2 snapshotted, and an explicit Snapshot 1', () => {
    const given = spec.given([
      sessionCreated(),
      taken(1),
      snapshotTaken('s1', 'snap-a', 1),
      taken(2),
    ]);

    it('records nothing for a turn that has one already (a reaction delivered again)', () => {
      given.when(take(2, 'other-id')).then([]);
    });

    it("takes the next turn's, explicit Snapshots in between or not", () => {
      given.when(take(3)).then([taken(3)]);
    });

    it('rewinds to turn 1, naming its snapshot', () => {
      given
        .when(rewind(1))
        .then([
          { type: 'SessionRewound', data: { sessionId: 's1', turn: 1, snapshotId: 't1', at: AT } },
        ]);
    });

    it('says which turns have a snapshot when asked for another', () => {
      given.when(rewind(7)).thenThrows(ErrorCode.NotFound, /turns with one: 1, 2\)/);
    });
  });
});
