import type { Actor, DomainEvent } from '../kernel';

/** What the approval card and the Terminals view show of the endpoint, as it was asked for. */
export interface SshTerminalTarget {
  endpointId: string;
  name: string;
  host: string;
  port: number;
  user: string;
  /** The pinned fingerprint at request time; null: the first handshake pins what it sees. */
  hostKeyFingerprint: string | null;
}

/** Why a terminal ended. */
export type SshTerminalCloseReason =
  'closed' | 'transport-disconnected' | 'remote-exit' | 'denied' | 'shutdown';

export type SshTerminalRequested = DomainEvent<
  'SshTerminalRequested',
  {
    terminalId: string;
    /** The AgentSession (MCP connection) that owns it: the only one that may see it. */
    owner: string;
    requestedBy: Actor;
    /** Who asks, in words: the MCP client's name and who granted it access. */
    requester: string;
    target: SshTerminalTarget;
    expiresAt: string;
    at: string;
    /**
     * The Sessionboxer session whose agent asks, when one does (the server given to it by the
     * MCP registry): the card shows in its transcript. Absent for outside clients and before
     * the registry could give the server.
     */
    forSession?: string;
  }
>;
export type SshTerminalAllowed = DomainEvent<
  'SshTerminalAllowed',
  { terminalId: string; by: Actor; at: string }
>;
export type SshTerminalOpened = DomainEvent<
  'SshTerminalOpened',
  { terminalId: string; hostKeyFingerprint: string; at: string }
>;
/** A batch of the terminal's output: `data` is base64 of the bytes from `offset` on. */
export type SshTerminalOutputRecorded = DomainEvent<
  'SshTerminalOutputRecorded',
  { terminalId: string; offset: number; length: number; data: string; at: string }
>;
export type SshTerminalClosed = DomainEvent<
  'SshTerminalClosed',
  { terminalId: string; reason: SshTerminalCloseReason; by: Actor; at: string }
>;
export type SshTerminalErrored = DomainEvent<
  'SshTerminalErrored',
  { terminalId: string; message: string; at: string }
>;

export type SshTerminalEvent =
  | SshTerminalRequested
  | SshTerminalAllowed
  | SshTerminalOpened
  | SshTerminalOutputRecorded
  | SshTerminalClosed
  | SshTerminalErrored;

export const SSH_TERMINAL_EVENT_TYPES: readonly SshTerminalEvent['type'][] = [
  'SshTerminalRequested',
  'SshTerminalAllowed',
  'SshTerminalOpened',
  'SshTerminalOutputRecorded',
  'SshTerminalClosed',
  'SshTerminalErrored',
];
