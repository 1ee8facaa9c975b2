import { isEgressLogEvent } from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import type { DocumentChange } from './projection';
import { marker, type TranscriptMarker } from './transcript-marker';

/**
 * "blocked a connection to evil.example:443: …" in the session's transcript for every
 * connection its box's egress proxy refused, with the reason; allowed ones are only counted
 * (the egress hosts read model).
 */
export function egressMarkers(event: RecordedEvent): DocumentChange<TranscriptMarker>[] {
  if (!isEgressLogEvent(event) || event.type !== 'EgressRefused') return [];
  const { sessionId, host, port, reason } = event.data;
  const target = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  return [
    marker(event, sessionId, 'egress-refused', `blocked a connection to ${target}: ${reason}`),
  ];
}
