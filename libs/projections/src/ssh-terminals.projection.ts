import { SSH_TERMINAL_EVENT_TYPES, type SshTerminalEvent } from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import type { SshTerminalView } from '@sessionboxer/contracts';
import type { DocumentChange, Projection } from './projection';
import type { ReadModelReader } from './store/read-model-store';

/**
 * Every SSH terminal: its endpoint-auth card while pending, who approved it and when, its
 * status and how many bytes it printed. The bytes themselves stay in the events.
 */
function change(
  e: Exclude<SshTerminalEvent, { type: 'SshTerminalRequested' }>,
  before: SshTerminalView,
): SshTerminalView {
  const at = e.data.at;
  switch (e.type) {
    case 'SshTerminalAllowed':
      return { ...before, awaitingApproval: false, approvedBy: e.data.by, approvedAt: at };
    case 'SshTerminalOpened':
      return {
        ...before,
        status: 'open',
        openedAt: at,
        hostKeyFingerprint: e.data.hostKeyFingerprint,
      };
    case 'SshTerminalOutputRecorded':
      return { ...before, bytes: e.data.offset + e.data.length };
    case 'SshTerminalClosed':
      return {
        ...before,
        status: 'closed',
        awaitingApproval: false,
        endedAt: at,
        endReason: e.data.reason,
      };
    case 'SshTerminalErrored':
      return {
        ...before,
        status: 'errored',
        awaitingApproval: false,
        endedAt: at,
        endReason: e.data.message,
      };
  }
}

function apply(
  event: RecordedEvent,
  get: (id: string) => SshTerminalView | null,
): DocumentChange<SshTerminalView>[] {
  const e = event as RecordedEvent & SshTerminalEvent;
  const id = e.data.terminalId;
  if (e.type === 'SshTerminalRequested') {
    const { owner, requestedBy, requester, target, expiresAt, at, forSession } = e.data;
    const doc: SshTerminalView = {
      terminalId: id,
      owner,
      requestedBy,
      requester,
      forSession: forSession ?? null,
      endpoint: target,
      status: 'pending',
      awaitingApproval: true,
      createdAt: at,
      expiresAt,
      approvedBy: null,
      approvedAt: null,
      openedAt: null,
      hostKeyFingerprint: null,
      endedAt: null,
      endReason: null,
      bytes: 0,
    };
    return [{ id, order: event.position, doc }];
  }
  if (!SSH_TERMINAL_EVENT_TYPES.includes(e.type)) return [];
  const before = get(id);
  return before === null ? [] : [{ id, doc: change(e, before) }];
}

export const sshTerminalsProjection: Projection<SshTerminalView> = {
  name: 'ssh_terminals',
  // 2: forSession, the session whose agent asked.
  version: 2,
  handles: SSH_TERMINAL_EVENT_TYPES,
  apply,
};

export function sshTerminalQueries(reader: ReadModelReader) {
  return {
    get: (id: string) => reader.get(sshTerminalsProjection, id),
    /** Newest first. */
    list: () =>
      reader
        .list(sshTerminalsProjection, { partition: '' })
        .map((d) => d.doc)
        .reverse(),
  };
}
