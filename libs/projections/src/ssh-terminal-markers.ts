import type { SshTerminalEvent } from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import { docId } from './doc-id';
import type { DocumentChange } from './projection';
import { marker, type TranscriptMarker } from './transcript-marker';

/** Which session's agent asked for an SSH terminal, kept beside the markers for its outcome. */
export interface MarkerSshTerminalIndex {
  sshTerminal: string;
  sessionId: string;
  name: string;
}

const INDEX_PARTITION = '';
const indexKey = (terminalId: string) => docId('ssh-terminal', terminalId);

export const SSH_TERMINAL_MARKER_EVENTS = [
  'SshTerminalRequested',
  'SshTerminalAllowed',
  'SshTerminalErrored',
  'SshTerminalClosed',
] as const;

type Doc = TranscriptMarker | MarkerSshTerminalIndex;

function isSshTerminalEvent(event: RecordedEvent): event is RecordedEvent & SshTerminalEvent {
  return (SSH_TERMINAL_MARKER_EVENTS as readonly string[]).includes(event.type);
}

/**
 * The endpoint-auth card in the transcript of the session whose agent asked (the terminal MCP
 * given to it by the MCP registry), then how it went: allowed, denied, failed, closed. A
 * terminal an outside client asked for belongs to no session and gets no marker.
 */
export function sshTerminalMarkers(
  event: RecordedEvent,
  get: (id: string) => object | null,
): DocumentChange<Doc>[] {
  if (!isSshTerminalEvent(event)) return [];
  const { terminalId } = event.data;
  const link = { sshTerminalId: terminalId };
  if (event.type === 'SshTerminalRequested') {
    const { forSession, target } = event.data;
    if (!forSession) return [];
    const { name, user, host, port } = target;
    const text = `asked to open an SSH terminal on ${name} (${user}@${host}:${port})`;
    const index: DocumentChange<Doc> = {
      id: indexKey(terminalId),
      partition: INDEX_PARTITION,
      order: event.position,
      doc: { sshTerminal: terminalId, sessionId: forSession, name },
    };
    return [marker(event, forSession, 'ssh-terminal-requested', text, link), index];
  }
  const index = get(indexKey(terminalId)) as MarkerSshTerminalIndex | null;
  if (!index) return [];
  const on = `the SSH terminal on ${index.name}`;
  const text =
    event.type === 'SshTerminalAllowed'
      ? `${on} was allowed`
      : event.type === 'SshTerminalErrored'
        ? `${on} failed: ${event.data.message}`
        : event.type === 'SshTerminalClosed'
          ? event.data.reason === 'denied'
            ? `${on} was denied`
            : `${on} closed (${event.data.reason})`
          : null;
  if (text === null) return [];
  return [marker(event, index.sessionId, 'ssh-terminal-answered', text, link)];
}
