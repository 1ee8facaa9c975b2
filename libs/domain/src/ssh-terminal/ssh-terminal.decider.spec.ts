import { ErrorCode, type Actor } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import { AT, meta } from '../../test/session-fixtures';
import type { SshTerminalCommand } from './ssh-terminal.commands';
import { sshTerminalDecider, sshTerminalStream } from './ssh-terminal.decider';
import type { SshTerminalEvent } from './ssh-terminal.events';

const spec = DeciderSpecification.for(sshTerminalDecider);
const AGENT: Actor = { kind: 'system', id: 'terminal-mcp' };
const PERSON: Actor = { kind: 'person', id: 'ada' };
const LATER = '2026-01-02T03:05:05.000Z';
const target = {
  endpointId: 'e1',
  name: 'db',
  host: '127.0.0.1',
  port: 22,
  user: 'ops',
  hostKeyFingerprint: null,
};
const cmd = (type: SshTerminalCommand['type'], data: unknown, actor: Actor = AGENT, at = AT) =>
  ({ type, data, metadata: meta({ actor, at }) }) as SshTerminalCommand;
const requested: SshTerminalEvent = {
  type: 'SshTerminalRequested',
  data: {
    terminalId: 't1',
    owner: 'mcp-1',
    requestedBy: AGENT,
    requester: 'Claude Code (granted by ada)',
    target,
    expiresAt: LATER,
    at: AT,
  },
};
const allowed: SshTerminalEvent = {
  type: 'SshTerminalAllowed',
  data: { terminalId: 't1', by: PERSON, at: AT },
};
const opened: SshTerminalEvent = {
  type: 'SshTerminalOpened',
  data: { terminalId: 't1', hostKeyFingerprint: 'SHA256:x', at: AT },
};
const out = (offset: number, length: number): SshTerminalEvent => ({
  type: 'SshTerminalOutputRecorded',
  data: { terminalId: 't1', offset, length, data: 'aGk=', at: AT },
});

describe('ssh terminal decider', () => {
  it('lives in sshterminal-<id>', () => expect(sshTerminalStream('t1')).toBe('sshterminal-t1'));

  describe('not requested yet', () => {
    const given = spec.given([]);
    const request = (approversConnected: number) =>
      cmd('RequestSshTerminal', {
        terminalId: 't1',
        owner: 'mcp-1',
        requester: 'Claude Code (granted by ada)',
        target,
        approversConnected,
        expiresAt: LATER,
      });
    it('is requested, pending, when an approver is connected', () =>
      given.when(request(1)).then([requested]));
    it('is refused at once, 403-style, when no approver browser is connected', () =>
      given.when(request(0)).thenThrows(ErrorCode.Forbidden, /no approver's browser is connected/));
    it('is not there to answer', () =>
      given
        .when(cmd('AnswerSshTerminal', { terminalId: 't1', allow: true }, PERSON))
        .thenThrows(ErrorCode.NotFound));
  });

  describe('pending', () => {
    const given = spec.given([requested]);
    it('a person allows it', () =>
      given
        .when(cmd('AnswerSshTerminal', { terminalId: 't1', allow: true }, PERSON))
        .then([allowed]));
    it('a person denies it, which closes it', () =>
      given.when(cmd('AnswerSshTerminal', { terminalId: 't1', allow: false }, PERSON)).then([
        {
          type: 'SshTerminalClosed',
          data: { terminalId: 't1', reason: 'denied', by: PERSON, at: AT },
        },
      ]));
    it('only a person answers', () =>
      given
        .when(cmd('AnswerSshTerminal', { terminalId: 't1', allow: true }, AGENT))
        .thenThrows(ErrorCode.Forbidden));
    it('past its deadline it cannot be allowed any more', () =>
      given
        .when(cmd('AnswerSshTerminal', { terminalId: 't1', allow: true }, PERSON, LATER))
        .thenThrows(ErrorCode.InvalidState, /sign timeout/));
    it('expires only at its deadline, as a sign timeout', () => {
      given.when(cmd('ExpireSshTerminal', { terminalId: 't1' })).thenNothing();
      given.when(cmd('ExpireSshTerminal', { terminalId: 't1' }, AGENT, LATER)).then([
        {
          type: 'SshTerminalErrored',
          data: {
            terminalId: 't1',
            message: `sign timeout: no approver answered by ${LATER} (60 s)`,
            at: LATER,
          },
        },
      ]);
    });
    it('answered after the timeout was recorded, it says so', () =>
      spec
        .given([
          requested,
          {
            type: 'SshTerminalErrored',
            data: { terminalId: 't1', message: 'sign timeout', at: LATER },
          },
        ])
        .when(cmd('AnswerSshTerminal', { terminalId: 't1', allow: true }, PERSON))
        .thenThrows(ErrorCode.InvalidState, /sign timeout/));
    it('cannot open before it is allowed', () =>
      given
        .when(cmd('RecordSshTerminalOpened', { terminalId: 't1', hostKeyFingerprint: 'SHA256:x' }))
        .thenThrows(ErrorCode.InvalidState));
  });

  describe('allowed', () => {
    const given = spec.given([requested, allowed]);
    it('opens after the handshake', () =>
      given
        .when(cmd('RecordSshTerminalOpened', { terminalId: 't1', hostKeyFingerprint: 'SHA256:x' }))
        .then([opened]));
    it('is not answered twice', () =>
      given
        .when(cmd('AnswerSshTerminal', { terminalId: 't1', allow: false }, PERSON))
        .thenThrows(ErrorCode.InvalidState, /already answered/));
    it('errors when the handshake fails', () =>
      given.when(cmd('FailSshTerminal', { terminalId: 't1', message: 'host key changed' })).then([
        {
          type: 'SshTerminalErrored',
          data: { terminalId: 't1', message: 'host key changed', at: AT },
        },
      ]));
  });

  describe('open', () => {
    const given = spec.given([requested, allowed, opened, out(0, 2)]);
    const record = (offset: number, length: number) =>
      cmd('RecordSshTerminalOutput', { terminalId: 't1', offset, length, data: 'aGk=' });
    it('records output batches in byte order', () => given.when(record(2, 2)).then([out(2, 2)]));
    it('takes a batch again as a no-op', () => given.when(record(0, 2)).thenNothing());
    it('refuses a batch that leaves a gap', () =>
      given.when(record(5, 2)).thenThrows(ErrorCode.InvalidState, /gap/));
    it('closes once, with why', () => {
      given.when(cmd('CloseSshTerminal', { terminalId: 't1', reason: 'remote-exit' })).then([
        {
          type: 'SshTerminalClosed',
          data: { terminalId: 't1', reason: 'remote-exit', by: AGENT, at: AT },
        },
      ]);
    });
  });

  describe('closed', () => {
    const closed: SshTerminalEvent = {
      type: 'SshTerminalClosed',
      data: { terminalId: 't1', reason: 'closed', by: AGENT, at: AT },
    };
    const given = spec.given([requested, allowed, opened, closed]);
    it('closing or failing again changes nothing', () => {
      given.when(cmd('CloseSshTerminal', { terminalId: 't1', reason: 'closed' })).thenNothing();
      given.when(cmd('FailSshTerminal', { terminalId: 't1', message: 'x' })).thenNothing();
    });
  });
});
