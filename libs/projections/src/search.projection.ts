import type { SearchResult, SearchResultKind } from '@sessionboxer/contracts';
import { isConversationEvent, isSessionEvent } from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import { docId } from './doc-id';
import type { DocumentChange, Projection } from './projection';
import type { ReadModelReader } from './store/read-model-store';

export type { SearchResult };

/**
 * What search finds: each session's title (its own document) and the words of its transcript
 * that a person would look for: prompts, the agent's replies and its notes (`notify`). Tool
 * calls and their outputs are left out (logs and file dumps that would drown the rest), and a
 * text is indexed up to SEARCH_TEXT_MAX characters. Texts are as the events hold them, so what
 * was masked there (credentials) stays masked here.
 */
type EntryKind = Exclude<SearchResultKind, 'title'>;

interface SessionDoc {
  t: 'session';
  sessionId: string;
  title: string;
  archived: boolean;
  at: string;
  /** Entries so far: they are `entry/<session>/1` … `entry/<session>/<entries>`. */
  entries: number;
}

interface EntryDoc {
  t: 'entry';
  sessionId: string;
  entryId: string;
  position: number;
  kind: EntryKind;
  text: string;
  at: string;
  archived: boolean;
}

/** A conversation's session, written at its start: later events name the conversation only. */
interface ConversationDoc {
  t: 'conversation';
  sessionId: string;
}

type SearchDoc = SessionDoc | EntryDoc | ConversationDoc;

/** Longer texts are cut: what matters is near the start, and a huge reply is mostly output. */
export const SEARCH_TEXT_MAX = 8_000;
export const SEARCH_LIMIT_MAX = 50;
export const SEARCH_LIMIT_DEFAULT = 20;

const sessionKey = (sessionId: string) => docId('session', sessionId);
const entryKey = (sessionId: string, n: number) => docId('entry', sessionId, String(n));
const conversationKey = (conversationId: string) => docId('conversation', conversationId);

/** No control characters (the snippet's marks among them), and no more than the cap. */
function indexable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ').slice(0, SEARCH_TEXT_MAX);
}

function entry(
  event: RecordedEvent,
  session: SearchDoc | null,
  kind: EntryKind,
  text: string,
  at: string,
): DocumentChange<SearchDoc>[] {
  if (session?.t !== 'session' || text.trim() === '') return [];
  const n = session.entries + 1;
  const { sessionId, archived } = session;
  const doc: EntryDoc = {
    t: 'entry',
    sessionId,
    entryId: event.id,
    position: event.position,
    kind,
    text: indexable(text),
    at,
    archived,
  };
  return [
    { id: sessionKey(sessionId), doc: { ...session, entries: n } },
    { id: entryKey(sessionId, n), partition: sessionId, order: event.position, doc },
  ];
}

/** Every entry of a session, rewritten (archived) or deleted (`doc` null). */
function eachEntry(
  session: SessionDoc,
  get: (id: string) => SearchDoc | null,
  change: (doc: EntryDoc) => EntryDoc | null,
): DocumentChange<SearchDoc>[] {
  const changes: DocumentChange<SearchDoc>[] = [];
  for (let n = 1; n <= session.entries; n++) {
    const id = entryKey(session.sessionId, n);
    const doc = get(id);
    if (doc?.t === 'entry') changes.push({ id, doc: change(doc) });
  }
  return changes;
}

function sessionChange(
  event: RecordedEvent,
  get: (id: string) => SearchDoc | null,
): DocumentChange<SearchDoc>[] {
  if (!isSessionEvent(event)) return [];
  const id = sessionKey(event.data.sessionId);
  if (event.type === 'SessionCreated') {
    const { sessionId, title, at } = event.data;
    const doc: SessionDoc = { t: 'session', sessionId, title, archived: false, at, entries: 0 };
    return [{ id, partition: 'sessions', order: event.position, doc }];
  }
  const session = get(id);
  if (session?.t !== 'session') return [];
  if (event.type === 'SessionTitleSet') {
    return [{ id, doc: { ...session, title: event.data.title } }];
  }
  if (event.type === 'SessionArchived' || event.type === 'SessionUnarchived') {
    const archived = event.type === 'SessionArchived';
    const entries = eachEntry(session, get, (doc) => ({ ...doc, archived }));
    return [{ id, doc: { ...session, archived } }, ...entries];
  }
  if (event.type === 'SessionDeleted') {
    return [{ id, doc: null }, ...eachEntry(session, get, () => null)];
  }
  // The agent's own note; PR and system notifications are the bell's, as in the markers.
  if (event.type !== 'NotificationSent' || event.data.source !== 'agent') return [];
  return entry(event, session, 'note', event.data.text, event.data.at);
}

function conversationChange(
  event: RecordedEvent,
  get: (id: string) => SearchDoc | null,
): DocumentChange<SearchDoc>[] {
  if (!isConversationEvent(event)) return [];
  const id = conversationKey(event.data.conversationId);
  if (event.type === 'ConversationStarted') {
    const { owner } = event.data;
    if (owner.kind !== 'session') return [];
    return [
      { id, partition: '', order: 0, doc: { t: 'conversation', sessionId: owner.sessionId } },
    ];
  }
  if (event.type !== 'TurnStarted' && event.type !== 'AgentMessaged') return [];
  const owner = get(id);
  if (owner?.t !== 'conversation') return [];
  const session = get(sessionKey(owner.sessionId));
  const kind = event.type === 'TurnStarted' ? 'prompt' : 'reply';
  return entry(event, session, kind, event.data.text, event.data.at);
}

function apply(event: RecordedEvent, get: (id: string) => SearchDoc | null) {
  return [...sessionChange(event, get), ...conversationChange(event, get)];
}

export const searchProjection: Projection<SearchDoc> = {
  name: 'search',
  version: 1,
  handles: [
    'SessionCreated',
    'SessionTitleSet',
    'SessionArchived',
    'SessionUnarchived',
    'SessionDeleted',
    'NotificationSent',
    'ConversationStarted',
    'TurnStarted',
    'AgentMessaged',
  ],
  apply,
  // A session's document holds its title, an entry's its text: a title counts three times.
  fullText: {
    columns: [
      { name: 'title', path: '$.title', weight: 3 },
      { name: 'text', path: '$.text' },
    ],
  },
};

export interface SearchOptions {
  q: string;
  /** 1–50; default 20. */
  limit?: number;
  includeArchived?: boolean;
}

export interface SearchQueries {
  /** Best first; `q` read as plain words, the last a prefix (see FullTextQuery). */
  search(options: SearchOptions): SearchResult[];
}

export function searchQueries(reader: ReadModelReader): SearchQueries {
  return {
    search({ q, limit = SEARCH_LIMIT_DEFAULT, includeArchived = false }) {
      const n = Math.min(Math.max(1, Math.trunc(limit)), SEARCH_LIMIT_MAX);
      const where = includeArchived ? [] : [{ path: '$.archived', equals: false }];
      const hits = reader.search(searchProjection, { text: q, limit: n, where });
      const titles = new Map<string, string>();
      const titleOf = (sessionId: string) => {
        if (!titles.has(sessionId)) {
          const doc = reader.get(searchProjection, sessionKey(sessionId));
          titles.set(sessionId, doc?.t === 'session' ? doc.title : '');
        }
        return titles.get(sessionId) ?? '';
      };
      return hits.flatMap(({ doc, snippet }): SearchResult[] => {
        if (doc.t === 'session') {
          const { sessionId, title, archived, at } = doc;
          return [{ sessionId, title, archived, kind: 'title', snippet, at }];
        }
        if (doc.t !== 'entry') return [];
        const { sessionId, archived, entryId, position, kind, at } = doc;
        const title = titleOf(sessionId);
        return [{ sessionId, title, archived, entryId, position, kind, snippet, at }];
      });
    },
  };
}
