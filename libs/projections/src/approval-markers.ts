import { isApprovalEvent } from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import type { DocumentChange } from './projection';
import { marker, type TranscriptMarker } from './transcript-marker';

/**
 * The approval card in the asking session's transcript: the request ("Claude Code wants to
 * create a Session “…”", linking to the card), then how it was settled. The session it created
 * gets its own "created Session …" marker from its creation.
 */
export function approvalMarkers(event: RecordedEvent): DocumentChange<TranscriptMarker>[] {
  if (!isApprovalEvent(event)) return [];
  const { sessionId, approvalId } = event.data;
  const link = { approvalId };
  switch (event.type) {
    case 'ApprovalRequested':
      return [marker(event, sessionId, 'approval-requested', event.data.summary, link)];
    case 'ApprovalAnswered': {
      const text = event.data.allowed ? 'you allowed the request' : 'you denied the request';
      return [marker(event, sessionId, 'approval-answered', text, link)];
    }
    case 'ApprovalExpired':
      return [
        marker(
          event,
          sessionId,
          'approval-answered',
          'the request expired unanswered (denied)',
          link,
        ),
      ];
    case 'ApprovalOutcomeRecorded':
      return [];
  }
}
