import type { Command } from '../kernel';
import type { SshTerminalCloseReason, SshTerminalTarget } from './ssh-terminal.events';

/** How long an endpoint-auth card waits for an approver before the terminal is refused. */
export const SSH_SIGN_TIMEOUT_MS = 60_000;

export type RequestSshTerminal = Command<
  'RequestSshTerminal',
  {
    terminalId: string;
    owner: string;
    requester: string;
    target: SshTerminalTarget;
    /** Approvers' browsers connected now: with none, nobody could answer, so it is refused. */
    approversConnected: number;
    expiresAt: string;
    /** The Sessionboxer session whose agent asks (given the server by the MCP registry). */
    forSession?: string | null;
  }
>;
export type AnswerSshTerminal = Command<
  'AnswerSshTerminal',
  { terminalId: string; allow: boolean }
>;
/** Ends a pending request whose deadline passed (a sign timeout). */
export type ExpireSshTerminal = Command<'ExpireSshTerminal', { terminalId: string }>;
export type RecordSshTerminalOpened = Command<
  'RecordSshTerminalOpened',
  { terminalId: string; hostKeyFingerprint: string }
>;
export type RecordSshTerminalOutput = Command<
  'RecordSshTerminalOutput',
  { terminalId: string; offset: number; length: number; data: string }
>;
export type CloseSshTerminal = Command<
  'CloseSshTerminal',
  { terminalId: string; reason: SshTerminalCloseReason }
>;
export type FailSshTerminal = Command<'FailSshTerminal', { terminalId: string; message: string }>;

export type SshTerminalCommand =
  | RequestSshTerminal
  | AnswerSshTerminal
  | ExpireSshTerminal
  | RecordSshTerminalOpened
  | RecordSshTerminalOutput
  | CloseSshTerminal
  | FailSshTerminal;
