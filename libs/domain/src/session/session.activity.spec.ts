import { ErrorCode } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import {
  exitTerminal,
  notificationSent,
  notify,
  openTerminal,
  paneRequested,
  reportTerminal,
  requestPane,
  terminalExited,
  terminalOpened,
} from '../../test/session-activity-fixtures';
import { sessionCreated, sessionStopped } from '../../test/session-fixtures';
import { sessionDecider } from './session.decider';

const spec = DeciderSpecification.for(sessionDecider);
const LATER = '2026-01-02T04:00:00.000Z';

describe('session notifications, terminals and panes', () => {
  describe('no session', () => {
    it.each([
      ['notified', notify('s1', 'n1', 'Tests pass')],
      ['given a terminal', openTerminal('s1', 't1')],
      ['told a terminal exited', exitTerminal('s1', 't1', 0)],
      ['shown a pane', requestPane('s1', 'prs')],
    ])('cannot be %s', (_case, command) => {
      spec.given([]).when(command).thenThrows(ErrorCode.NotFound, 'session s1 does not exist');
    });
  });

  describe('running: notifications', () => {
    const given = spec.given([sessionCreated()]);

    it('sends one, trimmed, from each source', () => {
      given
        .when(notify('s1', 'n1', '  Tests pass '))
        .then([notificationSent('s1', 'n1', 'Tests pass')]);
      given
        .when(notify('s1', 'n2', 'CI failed', 'pr', LATER))
        .then([notificationSent('s1', 'n2', 'CI failed', 'pr', LATER)]);
    });

    it('takes 500 characters (emoji count once), not 501', () => {
      const text = '🔔'.repeat(500);
      given.when(notify('s1', 'n1', text)).then([notificationSent('s1', 'n1', text)]);
      given
        .when(notify('s1', 'n1', 'x'.repeat(501)))
        .thenThrows(ErrorCode.ValidationFailed, 'text must be at most 500 characters (it has 501)');
    });

    it.each([
      ['empty text', notify('s1', 'n1', '  '), /text must not be empty/],
      ['a newline', notify('s1', 'n1', 'one\ntwo'), /control characters/],
      ['a bell character', notify('s1', 'n1', 'ding\u0007'), /control characters/],
      [
        'an unknown source',
        notify('s1', 'n1', 'hi', 'email' as 'agent'),
        /source must be one of agent, pr, system/,
      ],
      ['a blank id', notify('s1', '', 'hi'), /notificationId must not be empty/],
    ])('refuses %s', (_case, command, why) => {
      given.when(command).thenThrows(ErrorCode.ValidationFailed, why);
    });

    it('refuses an id already used', () => {
      spec
        .given([sessionCreated(), notificationSent('s1', 'n1', 'Tests pass')])
        .when(notify('s1', 'n1', 'Again'))
        .thenThrows(ErrorCode.AlreadyExists, /notification n1 was already sent/);
    });
  });

  describe('running: terminals', () => {
    const given = spec.given([sessionCreated()]);

    it('records a Terminal opened by the agent with its argv, or a person’s plain shell', () => {
      const argv = ['npm', 'run', 'dev', ''];
      given.when(openTerminal('s1', 't1', argv)).then([terminalOpened('s1', 't1', argv)]);
      given
        .when(openTerminal('s1', 't2', null, 'person'))
        .then([terminalOpened('s1', 't2', null, 'person')]);
    });

    it.each([
      ['an empty argv', [], /command must have 1–100 items/],
      ['a nameless program', [' ', 'x'], /command\[0\] must name a program/],
      ['a NUL', ['sh', 'a\0b'], /command\[1\] must not contain NUL/],
      ['a number', ['sleep', 5], /command\[1\] must be a string/],
      ['a string', 'npm test', /command must be a list of strings/],
    ])('refuses %s', (_case, command, why) => {
      const cmd = openTerminal('s1', 't1', command as string[]);
      given.when(cmd).thenThrows(ErrorCode.ValidationFailed, why);
    });

    it('refuses an unknown opener', () => {
      const cmd = openTerminal('s1', 't1', null, 'robot' as 'agent');
      given
        .when(cmd)
        .thenThrows(ErrorCode.ValidationFailed, /openedBy must be one of agent, person/);
    });

    it('refuses a box reporting a Terminal nobody asked it to open', () => {
      given
        .when(reportTerminal('s1', 't9'))
        .thenThrows(ErrorCode.NotFound, /session s1 never asked its box to open terminal t9/);
    });

    it('cannot record the exit of a Terminal it does not know', () => {
      given
        .when(exitTerminal('s1', 't9', 0))
        .thenThrows(ErrorCode.NotFound, 'terminal t9 does not exist in session s1');
    });
  });

  describe('running, with an open terminal', () => {
    const given = spec.given([sessionCreated(), terminalOpened('s1', 't1', ['bash'])]);

    it('ignores a second report of the same Terminal', () => {
      given.when(openTerminal('s1', 't1', ['zsh'])).thenNothing();
    });

    it("takes the box's report that it opened the Terminal, recording nothing more", () => {
      given.when(reportTerminal('s1', 't1')).thenNothing();
    });

    it('records its exit code, negative ones included', () => {
      given
        .when(exitTerminal('s1', 't1', 130, LATER))
        .then([terminalExited('s1', 't1', 130, LATER)]);
      given.when(exitTerminal('s1', 't1', -9)).then([terminalExited('s1', 't1', -9)]);
    });

    it('refuses an exit code that is no whole number', () => {
      given.when(exitTerminal('s1', 't1', 1.5)).thenThrows(ErrorCode.ValidationFailed, /exitCode/);
    });

    it('shows the Terminal pane running a command in it', () => {
      const fields = { terminalId: 't1', command: 'npm run dev', shown: false };
      given
        .when(requestPane('s1', 'terminal', fields))
        .then([paneRequested('s1', 'terminal', fields)]);
    });
  });

  describe('running, with an exited terminal', () => {
    const given = spec.given([
      sessionCreated(),
      terminalOpened('s1', 't1'),
      terminalExited('s1', 't1', 1),
    ]);

    it('keeps the first exit code: a second exit changes nothing', () => {
      given.when(exitTerminal('s1', 't1', 0)).thenNothing();
    });

    it('does not record it opened again', () => {
      given.when(openTerminal('s1', 't1')).thenNothing();
    });
  });

  describe('running: panes', () => {
    const given = spec.given([sessionCreated()]);

    it.each(['transcript', 'prs', 'terminal', 'snapshots', 'autoqa', 'desktop', 'files'] as const)(
      'records a request for the %s pane, shown or not',
      (pane) => {
        given.when(requestPane('s1', pane)).then([paneRequested('s1', pane)]);
        given
          .when(requestPane('s1', pane, { shown: false }))
          .then([paneRequested('s1', pane, { shown: false })]);
      },
    );

    it.each([
      ['an unknown pane', requestPane('s1', 'logs' as 'prs'), /pane must be one of transcript/],
      [
        'a command outside the terminal pane',
        requestPane('s1', 'prs', { command: 'ls', terminalId: 't1' }),
        /goes with the terminal pane, not prs/,
      ],
      [
        'a command without its Terminal',
        requestPane('s1', 'terminal', { command: 'ls' }),
        /record it opened, then name it/,
      ],
      [
        'a multi-line command',
        requestPane('s1', 'terminal', { command: 'a\nb', terminalId: 't1' }),
        /control characters/,
      ],
      [
        'shown as text',
        requestPane('s1', 'prs', { shown: 'yes' as unknown as boolean }),
        /shown must be true or false/,
      ],
    ])('refuses %s', (_case, command, why) => {
      given.when(command).thenThrows(ErrorCode.ValidationFailed, why);
    });

    it('refuses a Terminal it does not know', () => {
      given
        .when(requestPane('s1', 'terminal', { terminalId: 't9' }))
        .thenThrows(ErrorCode.NotFound, 'terminal t9 does not exist in session s1');
    });
  });

  describe('stopped', () => {
    const given = spec.given([sessionCreated(), terminalOpened('s1', 't1'), sessionStopped('s1')]);

    it('still records what arrives after the stop: an exit, a notification, a pane', () => {
      given.when(exitTerminal('s1', 't1', 137)).then([terminalExited('s1', 't1', 137)]);
      given
        .when(notify('s1', 'n1', 'Review comment', 'pr'))
        .then([notificationSent('s1', 'n1', 'Review comment', 'pr')]);
      given.when(requestPane('s1', 'snapshots')).then([paneRequested('s1', 'snapshots')]);
    });
  });
});
