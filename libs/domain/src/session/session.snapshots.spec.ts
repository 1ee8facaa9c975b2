import { ErrorCode } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import {
  revertToSnapshot,
  sessionReverted,
  snapshotTaken,
  takeSnapshot,
} from '../../test/session-activity-fixtures';
import { sessionCreated, sessionResumed, sessionStopped } from '../../test/session-fixtures';
import { sessionDecider } from './session.decider';

const spec = DeciderSpecification.for(sessionDecider);
const LATER = '2026-01-02T04:00:00.000Z';

describe('session snapshots', () => {
  describe('no session', () => {
    it.each([
      ['taken', takeSnapshot('s1', 'snap-1')],
      ['reverted to', revertToSnapshot('s1', 'snap-1')],
    ])('cannot be %s', (_case, command) => {
      spec.given([]).when(command).thenThrows(ErrorCode.NotFound, 'session s1 does not exist');
    });
  });

  describe('running, no snapshot yet', () => {
    const given = spec.given([sessionCreated()]);

    it('takes Snapshot 1 with its size, conversation position and the command time', () => {
      given
        .when(takeSnapshot('s1', 'snap-a', { sizeBytes: 5_000_000 }, LATER))
        .then([snapshotTaken('s1', 'snap-a', 1, { sizeBytes: 5_000_000 }, LATER)]);
    });

    it('takes one without a known conversation position, and an empty one', () => {
      const data = { conversationPosition: null, sizeBytes: 0 };
      given.when(takeSnapshot('s1', 'snap-a', data)).then([snapshotTaken('s1', 'snap-a', 1, data)]);
    });

    it.each([
      ['a negative size', { sizeBytes: -1 }, /sizeBytes must be between 0/],
      ['a fractional size', { sizeBytes: 1.5 }, /sizeBytes must be a whole number/],
      ['a size as text', { sizeBytes: '10' }, /sizeBytes must be a whole number/],
      ['a negative position', { conversationPosition: -3 }, /conversationPosition/],
    ])('refuses %s', (_case, data, why) => {
      const command = takeSnapshot('s1', 'snap-a', data as { sizeBytes: number });
      given.when(command).thenThrows(ErrorCode.ValidationFailed, why);
    });

    it('refuses a blank snapshot id', () => {
      given.when(takeSnapshot('s1', ' ')).thenThrows(ErrorCode.ValidationFailed, /snapshotId/);
    });

    it('cannot revert to a snapshot it does not have', () => {
      given
        .when(revertToSnapshot('s1', 'snap-x'))
        .thenThrows(ErrorCode.NotFound, 'snapshot snap-x does not exist in session s1');
    });

    it('does not find a snapshot named after an Object property', () => {
      given.when(revertToSnapshot('s1', 'constructor')).thenThrows(ErrorCode.NotFound);
    });
  });

  describe('running, with snapshots', () => {
    const history = [
      sessionCreated(),
      snapshotTaken('s1', 'snap-a', 1),
      snapshotTaken('s1', 'snap-b', 2),
    ];
    const given = spec.given(history);

    it('numbers the next one after the last', () => {
      given.when(takeSnapshot('s1', 'snap-c')).then([snapshotTaken('s1', 'snap-c', 3)]);
    });

    it('refuses an id it already has', () => {
      given
        .when(takeSnapshot('s1', 'snap-a'))
        .thenThrows(ErrorCode.AlreadyExists, 'snapshot snap-a already exists in session s1');
    });

    it('reverts to a snapshot, naming its ordinal', () => {
      given
        .when(revertToSnapshot('s1', 'snap-a', LATER))
        .then([sessionReverted('s1', 'snap-a', 1, LATER)]);
    });

    it('keeps its snapshots and their count after a revert', () => {
      const reverted = [...history, sessionReverted('s1', 'snap-a', 1)];
      spec
        .given(reverted)
        .when(takeSnapshot('s1', 'snap-c'))
        .then([snapshotTaken('s1', 'snap-c', 3)]);
      spec
        .given(reverted)
        .when(revertToSnapshot('s1', 'snap-a'))
        .then([sessionReverted('s1', 'snap-a', 1)]);
    });
  });

  describe('stopped', () => {
    const given = spec.given([
      sessionCreated(),
      snapshotTaken('s1', 'snap-a', 1),
      sessionStopped('s1'),
    ]);

    it('still takes a snapshot: the disk of a stopped box is there to copy', () => {
      given.when(takeSnapshot('s1', 'snap-b')).then([snapshotTaken('s1', 'snap-b', 2)]);
    });

    it('is reverted', () => {
      given.when(revertToSnapshot('s1', 'snap-a')).then([sessionReverted('s1', 'snap-a', 1)]);
    });

    it('counts on after a resume', () => {
      spec
        .given([
          sessionCreated(),
          snapshotTaken('s1', 'snap-a', 1),
          sessionStopped('s1'),
          sessionResumed('s1'),
        ])
        .when(takeSnapshot('s1', 'snap-b'))
        .then([snapshotTaken('s1', 'snap-b', 2)]);
    });
  });

  describe.each(['qemu-windows', 'qemu-macos'] as const)('a %s session', (environment) => {
    const given = spec.given([sessionCreated({ environment })]);

    it.each([
      ['snapshot', takeSnapshot('s1', 'snap-a')],
      ['revert', revertToSnapshot('s1', 'snap-a')],
    ])('has no %s', (_case, command) => {
      given
        .when(command)
        .thenThrows(
          ErrorCode.InvalidState,
          /snapshots are not available in Windows and macOS sessions/,
        );
    });
  });
});
