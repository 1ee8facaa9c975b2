import {
  assertNever,
  isCurrentRunEvent,
  isVerificationEvent,
  VERIFICATION_EVENT_TYPES,
  type VerificationEvent,
} from '@sessionboxer/domain';
import type {
  VerificationAttempt,
  VerificationCase,
  VerificationCaseStatus,
  VerificationRun,
  VerificationSummary,
} from '@sessionboxer/contracts';
import type { RecordedEvent } from '@sessionboxer/event-store';
import { docId } from './doc-id';
import type { DocumentChange, Projection } from './projection';
import type { ReadModelReader } from './store/read-model-store';

// A run as its pane shows it (and the e2e tools return it) is the wire's (libs/contracts).
export type {
  VerificationAttempt,
  VerificationCase,
  VerificationCaseStatus,
  VerificationRun as VerificationRunDoc,
  VerificationSummary,
};
type VerificationRunDoc = VerificationRun;

/** Which run is a session's current one (what its `verifications-<id>` stream says). */
interface CurrentRunIndex {
  sessionId: string;
  runId: string;
}

type StoredDoc = VerificationRunDoc | CurrentRunIndex;

// Runs sit in their session's partition; the index in '' (no session id is empty). docId
// escapes `/`, so the two prefixes keep the kinds of document apart.
const INDEX_PARTITION = '';
const runKey = (runId: string) => docId('run', runId);
const indexKey = (sessionId: string) => docId('session', sessionId);

function isRun(doc: StoredDoc | null): doc is VerificationRunDoc {
  return doc !== null && 'brief' in doc;
}

function lastAttempt(c: VerificationCase, change: Partial<VerificationAttempt>): VerificationCase {
  const attempts = c.attempts.map((a, i) =>
    i === c.attempts.length - 1 ? { ...a, ...change } : a,
  );
  return { ...c, status: attempts[attempts.length - 1].status, attempts };
}

function withCase(
  doc: VerificationRunDoc,
  index: number,
  f: (c: VerificationCase) => VerificationCase,
) {
  return { ...doc, cases: doc.cases.map((c) => (c.index === index ? f(c) : c)) };
}

/** The run after one of its events other than the opening. */
function changed(
  doc: VerificationRunDoc,
  event: Exclude<VerificationEvent, { type: 'VerificationOpened' }>,
): VerificationRunDoc {
  switch (event.type) {
    case 'VerificationCasesPlanned': {
      const cases = event.data.cases.map((c) => ({
        ...c,
        status: 'pending' as const,
        attempts: [],
      }));
      return { ...doc, status: 'running', cases };
    }
    case 'VerificationSkipped': {
      const { reason, at } = event.data;
      return { ...doc, status: 'skipped', skipReason: reason, closedAt: at };
    }
    case 'VerificationCaseStarted': {
      const { attempt, at } = event.data;
      const next = { attempt, status: 'running' as const, note: null, screenshot: null };
      return withCase(doc, event.data.index, (c) => ({
        ...c,
        status: 'running',
        attempts: [...c.attempts, { ...next, startedAt: at, endedAt: null }],
      }));
    }
    case 'VerificationCaseEnded': {
      const { status, note, screenshot, at } = event.data;
      return withCase(doc, event.data.index, (c) =>
        lastAttempt(c, { status, note, screenshot, endedAt: at }),
      );
    }
    case 'VerificationFinished': {
      const { verdict, cases, video, summary, at } = event.data;
      const final = new Map(cases.map((c) => [c.index, c.status]));
      const closed = doc.cases.map((c) => ({ ...c, status: final.get(c.index) ?? c.status }));
      return { ...doc, status: verdict, verdict, cases: closed, video, summary, closedAt: at };
    }
    default:
      return assertNever(event);
  }
}

function apply(
  event: RecordedEvent,
  get: (id: string) => StoredDoc | null,
): DocumentChange<StoredDoc>[] {
  if (isCurrentRunEvent(event)) {
    const { sessionId, runId } = event.data;
    const doc = { sessionId, runId };
    return [{ id: indexKey(sessionId), partition: INDEX_PARTITION, order: event.position, doc }];
  }
  if (!isVerificationEvent(event)) return [];
  if (event.type === 'VerificationOpened') {
    const { runId, sessionId, brief, at } = event.data;
    const doc: VerificationRunDoc = {
      id: runId,
      sessionId,
      brief,
      status: 'open',
      openedBy: event.metadata.actor,
      openedAt: at,
      cases: [],
      verdict: null,
      video: null,
      summary: null,
      skipReason: null,
      closedAt: null,
      position: event.position,
    };
    return [{ id: runKey(runId), partition: sessionId, order: event.position, doc }];
  }
  const doc = get(runKey(event.data.runId));
  // An event of a run this read model never saw opened changes nothing (a valid log has none).
  return isRun(doc) ? [{ id: runKey(doc.id), doc: changed(doc, event) }] : [];
}

export const verificationsProjection: Projection<StoredDoc> = {
  name: 'verifications',
  version: 1,
  handles: [...VERIFICATION_EVENT_TYPES, 'CurrentVerificationRunSet'],
  apply,
};

/** A session's Auto QA runs. Read-only. */
export interface VerificationQueries {
  /** Oldest first. */
  list(sessionId: string): VerificationRunDoc[];
  get(runId: string): VerificationRunDoc | null;
  /** The session's current run (the last one opened, open or closed), or null. */
  current(sessionId: string): VerificationRunDoc | null;
  summary(sessionId: string): VerificationSummary | null;
}

export function verificationQueries(reader: ReadModelReader): VerificationQueries {
  const get = (runId: string): VerificationRunDoc | null => {
    const doc = reader.get(verificationsProjection, runKey(runId));
    return isRun(doc) ? doc : null;
  };
  const current = (sessionId: string): VerificationRunDoc | null => {
    const index = reader.get(verificationsProjection, indexKey(sessionId));
    return index === null || isRun(index) ? null : get(index.runId);
  };
  return {
    list: (sessionId) =>
      reader
        .list(verificationsProjection, { partition: sessionId })
        .map((d) => d.doc)
        .filter(isRun),
    get,
    current,
    summary(sessionId) {
      const run = current(sessionId);
      return run === null ? null : { id: run.id, status: run.status, brief: run.brief };
    },
  };
}
