import type { RecordedEvent } from '@sessionboxer/event-store';
import { approvalMarkers } from './approval-markers';

const AT = '2026-01-02T03:04:05.000Z';
const recorded = (type: string, data: object, position: number): RecordedEvent => ({
  id: `e${position}`,
  type,
  data,
  metadata: {
    commandId: `c${position}`,
    correlationId: 'x',
    causationId: 'x',
    actor: { kind: 'person', id: 'ada' },
    at: AT,
  },
  streamName: 'approval-a1',
  revision: position - 1,
  position,
  recordedAt: AT,
});

describe('approval cards in the asking session’s transcript', () => {
  const base = { approvalId: 'a1', sessionId: 's1', at: AT };

  it('shows the request with its summary, linking to the card', () => {
    const event = recorded(
      'ApprovalRequested',
      {
        ...base,
        kind: 'session_create',
        summary: 'Claude Code wants to create a Session “Docs”',
        payload: {},
        expiresAt: AT,
      },
      1,
    );
    expect(
      approvalMarkers(event).map((c) => [c.partition, c.doc?.kind, c.doc?.text, c.doc?.link]),
    ).toEqual([
      [
        's1',
        'approval-requested',
        'Claude Code wants to create a Session “Docs”',
        { approvalId: 'a1' },
      ],
    ]);
  });

  it('says how it was settled: allowed, denied or expired; the outcome adds nothing', () => {
    const texts = [
      recorded(
        'ApprovalAnswered',
        { ...base, allowed: true, by: { kind: 'person', id: 'ada' } },
        2,
      ),
      recorded(
        'ApprovalAnswered',
        { ...base, allowed: false, by: { kind: 'person', id: 'ada' } },
        3,
      ),
      recorded('ApprovalExpired', base, 4),
      recorded('ApprovalOutcomeRecorded', { ...base, result: {}, error: null }, 5),
    ].flatMap((e) => approvalMarkers(e).map((c) => c.doc?.text));
    expect(texts).toEqual([
      'you allowed the request',
      'you denied the request',
      'the request expired unanswered (denied)',
    ]);
  });
});
