import {
  isApprovalEvent,
  type ApprovalKind,
  type ApprovalStatus,
  type ApprovalEvent,
  type Actor,
} from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import type { DocumentChange, Projection } from './projection';
import type { ReadModelReader } from './store/read-model-store';

/** An approval card as recorded; `statusAt` turns a pending one past its deadline into expired. */
export interface ApprovalDoc {
  id: string;
  kind: ApprovalKind;
  /** The session whose agent asked. */
  sessionId: string;
  summary: string;
  /** What was asked for (the session to create: title, first prompt, provider). */
  payload: Record<string, unknown>;
  status: ApprovalStatus;
  expiresAt: string;
  requestedAt: string;
  answeredAt: string | null;
  /** Who answered, and the reason given (null: none, or not answered). */
  answeredBy: Actor | null;
  reason: string | null;
  /** What the allowed action returned, or why it failed. */
  result: Record<string, unknown> | null;
  error: string | null;
}

function change(event: RecordedEvent & ApprovalEvent, doc: ApprovalDoc | null): ApprovalDoc | null {
  switch (event.type) {
    case 'ApprovalRequested': {
      const { approvalId: id, kind, sessionId, summary, payload, expiresAt, at } = event.data;
      const fresh = {
        status: 'pending' as const,
        answeredAt: null,
        answeredBy: null,
        reason: null,
        result: null,
        error: null,
      };
      return { id, kind, sessionId, summary, payload, expiresAt, requestedAt: at, ...fresh };
    }
    case 'ApprovalAnswered':
      return (
        doc && {
          ...doc,
          status: event.data.allowed ? 'allowed' : 'denied',
          answeredAt: event.data.at,
          answeredBy: event.data.by,
          reason: event.data.reason ?? null,
        }
      );
    case 'ApprovalExpired':
      return doc && { ...doc, status: 'expired' };
    case 'ApprovalOutcomeRecorded':
      return doc && { ...doc, result: event.data.result, error: event.data.error };
  }
}

function apply(
  event: RecordedEvent,
  get: (id: string) => ApprovalDoc | null,
): DocumentChange<ApprovalDoc>[] {
  if (!isApprovalEvent(event)) return [];
  const id = event.data.approvalId;
  const doc = change(event, get(id));
  if (doc === null) return [];
  return [{ id, partition: doc.sessionId, order: event.position, doc }];
}

export const approvalsProjection: Projection<ApprovalDoc> = {
  name: 'approvals',
  // 2: who answered, and the reason given.
  version: 2,
  handles: ['ApprovalRequested', 'ApprovalAnswered', 'ApprovalExpired', 'ApprovalOutcomeRecorded'],
  apply,
};

/** A card as of `at`: pending past its deadline reads expired (it counts as denied). */
export function approvalAt(doc: ApprovalDoc, at: string): ApprovalDoc {
  return doc.status === 'pending' && at >= doc.expiresAt ? { ...doc, status: 'expired' } : doc;
}

export interface ApprovalQueries {
  get(id: string, at: string): ApprovalDoc | null;
  /** A session's cards, oldest first. */
  forSession(sessionId: string, at: string): ApprovalDoc[];
}

export function approvalQueries(reader: ReadModelReader): ApprovalQueries {
  return {
    get(id, at) {
      const doc = reader.get(approvalsProjection, id);
      return doc ? approvalAt(doc, at) : null;
    },
    forSession(sessionId, at) {
      return reader
        .list(approvalsProjection, { partition: sessionId, limit: 1000 })
        .map((d) => approvalAt(d.doc, at));
    },
  };
}
