import { boxEvent, boxProvisioned, BOX } from '../../domain/test/box-fixtures';
import {
  notificationSent,
  paneRequested,
  sessionReverted,
  snapshotTaken,
  terminalExited,
  terminalOpened,
} from '../../domain/test/session-activity-fixtures';
import {
  sessionCreated,
  sessionStopped,
  sessionTitleSet,
} from '../../domain/test/session-fixtures';
import type { TerminalSummary } from '@sessionboxer/mcp-adapters';
import { ProjectionSpecification } from '../test/projection-spec';
import { recorded } from '../test/recorded-events';
import {
  sessionDetailsProjection,
  sessionDetailsQueries,
  type SessionDetails,
} from './session-details.projection';

const spec = ProjectionSpecification.for(sessionDetailsProjection);
const T1 = '2026-01-02T03:04:05.000Z';
const T2 = '2026-01-02T05:00:00.000Z';
const get = (id: string) => (r: Parameters<typeof sessionDetailsQueries>[0]) =>
  sessionDetailsQueries(r).get(id);

function details(id: string, fields: Partial<SessionDetails> = {}): SessionDetails {
  const none = { box: null, lastSnapshot: null, lastPane: null, revertedTo: null };
  return { id, ...none, snapshotCount: 0, terminals: [], notificationCount: 0, ...fields };
}

describe('session details projection', () => {
  describe('no events', () => {
    it('knows no session', () => {
      spec.given([]).thenQuery(get('s1'), null);
    });
  });

  describe('a session just created', () => {
    it('has empty details', () => {
      spec.given(recorded([sessionCreated()])).then({ s1: details('s1') });
    });

    it('is not rewritten by a rename or a stop (the sidebar keeps those)', () => {
      const events = recorded([
        sessionCreated(),
        sessionTitleSet('s1', 'B', 'A'),
        sessionStopped('s1'),
      ]);
      spec.given(events).then({ s1: details('s1') });
    });
  });

  describe('a box through its life', () => {
    const box = { ...BOX, failure: null };

    it('follows the box status, with the time of the last change', () => {
      const provisioned = recorded([sessionCreated(), boxProvisioned({}, T1)]);
      spec
        .given(provisioned)
        .thenQuery(
          get('s1'),
          details('s1', { box: { status: 'provisioning', ...box, since: T1 } }),
        );
      const steps = recorded([
        sessionCreated(),
        boxProvisioned(),
        boxEvent('BoxReady'),
        boxEvent('BoxFrozen'),
        boxEvent('BoxThawed', 's1', '', T2),
      ]);
      spec
        .given(steps)
        .thenQuery((r) => get('s1')(r)?.box, { status: 'disconnected', ...box, since: T2 });
    });

    it('shows why it failed, and forgets it once provisioned again', () => {
      const failed = recorded([
        sessionCreated(),
        boxProvisioned(),
        boxEvent('BoxFailed', 's1', 'no bwrap'),
      ]);
      spec.given(failed).thenQuery((r) => get('s1')(r)?.box?.failure, 'no bwrap');
      const again = recorded([
        sessionCreated(),
        boxProvisioned(),
        boxEvent('BoxFailed'),
        boxProvisioned(),
      ]);
      spec
        .given(again)
        .thenQuery((r) => get('s1')(r)?.box, { status: 'provisioning', ...box, since: T1 });
    });

    it('takes a box event read before the session was (its own stream)', () => {
      const events = recorded([boxProvisioned(), boxEvent('BoxReady'), sessionCreated()]);
      spec.given(events).thenQuery((r) => get('s1')(r)?.box?.status, 'ready');
    });
  });

  describe('snapshots, notifications, terminals and panes', () => {
    const events = recorded([
      sessionCreated(),
      snapshotTaken('s1', 'snap-a', 1, { sizeBytes: 10 }),
      snapshotTaken('s1', 'snap-b', 2, { sizeBytes: 20 }, T2),
      sessionReverted('s1', 'snap-a', 1, T2),
      notificationSent('s1', 'n1', 'one'),
      notificationSent('s1', 'n2', 'two', 'pr'),
      terminalOpened('s1', 't1', ['npm', 'test']),
      terminalOpened('s1', 't2', null, 'person', T2),
      terminalExited('s1', 't1', 1),
      paneRequested('s1', 'prs'),
      paneRequested('s1', 'terminal', { terminalId: 't1', command: 'npm test', shown: false }, T2),
    ]);

    it('counts and keeps the latest of each', () => {
      spec.given(events).then({
        s1: details('s1', {
          snapshotCount: 2,
          lastSnapshot: { id: 'snap-b', ordinal: 2, sizeBytes: 20, createdAt: T2 },
          revertedTo: { snapshotId: 'snap-a', ordinal: 1, at: T2 },
          notificationCount: 2,
          terminals: [
            { id: 't1', createdAt: T1, exitCode: 1, command: ['npm', 'test'], openedBy: 'agent' },
            { id: 't2', createdAt: T2, exitCode: null, command: null, openedBy: 'person' },
          ],
          lastPane: {
            pane: 'terminal',
            shown: false,
            terminalId: 't1',
            command: 'npm test',
            at: T2,
          },
        }),
      });
    });

    it('keeps sessions apart', () => {
      const two = recorded([
        sessionCreated(),
        sessionCreated({ sessionId: 's2' }),
        snapshotTaken('s2', 'x', 1),
      ]);
      spec
        .given(two)
        .thenQuery((r) => [get('s1')(r)?.snapshotCount, get('s2')(r)?.snapshotCount], [0, 1]);
    });
  });

  it('serves terminal_list’s TerminalSummary', () => {
    const terminal: TerminalSummary = details('s1', {
      terminals: [{ id: 't1', createdAt: T1, exitCode: null, command: null, openedBy: 'person' }],
    }).terminals[0];
    expect(terminal.exitCode).toBeNull();
  });
});
