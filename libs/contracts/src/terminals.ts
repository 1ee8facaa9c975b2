import type { Actor } from '@sessionboxer/domain';

/** `GET /api/terminals/endpoints` and shellwatch_manage_endpoints: one SSH endpoint. */
export interface SshEndpointView {
  endpointId: string;
  name: string;
  host: string;
  port: number;
  user: string;
  keyId: string | null;
  /** OpenSSH `SHA256:…`; null until given or pinned by the first approved handshake. */
  hostKeyFingerprint: string | null;
  createdAt: string;
  updatedAt: string;
}

/** shellwatch_manage_keys and `GET /api/terminals/keys`: a key's metadata, never its material. */
export interface SshKeyView {
  keyId: string;
  kind: 'file' | 'passkey';
  name: string;
  type: string;
  fingerprint: string;
  comment: string;
  createdAt: string;
}

export type SshTerminalViewStatus = 'pending' | 'open' | 'closed' | 'errored';

/** `GET /api/terminals`: one SSH terminal, for the approval card and the Terminals view. */
export interface SshTerminalView {
  terminalId: string;
  /** The AgentSession (one MCP connection) that owns it. */
  owner: string;
  /** Who asked, as the MCP connection signed in (a person's OAuth consent, an API key). */
  requestedBy: Actor;
  /** The same in words: the MCP client's name and who granted it access. */
  requester: string;
  /** The Sessionboxer session whose agent asked (the terminal MCP from the registry), or null. */
  forSession: string | null;
  endpoint: {
    endpointId: string;
    name: string;
    host: string;
    port: number;
    user: string;
    hostKeyFingerprint: string | null;
  };
  status: SshTerminalViewStatus;
  /** True while the endpoint-auth card waits for an approver. */
  awaitingApproval: boolean;
  createdAt: string;
  expiresAt: string;
  approvedBy: Actor | null;
  approvedAt: string | null;
  openedAt: string | null;
  /** The host key the handshake verified. */
  hostKeyFingerprint: string | null;
  endedAt: string | null;
  /** Why it closed (closed, transport-disconnected, remote-exit, denied) or the error. */
  endReason: string | null;
  /** Bytes of output recorded. */
  bytes: number;
}

/** `GET /api/terminals/:id/output`: the same page shellwatch_read_output answers. */
export interface SshTerminalOutputPage {
  data: string;
  startOffset: number;
  endOffset: number;
  truncated: boolean;
}

/** `terminal.output` frame: bytes `[offset, offset + length)` of a terminal's output, base64. */
export interface SshTerminalOutputFrame {
  terminalId: string;
  offset: number;
  /** Base64 of the raw bytes: a frame may end inside a UTF-8 character; xterm joins them. */
  data: string;
}
