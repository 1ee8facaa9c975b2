import { assertNever, isSessionEvent, SESSION_LIFECYCLE_EVENT_TYPES } from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import type { DocumentChange, Projection } from './projection';
import type { ReadModelReader } from './store/read-model-store';
import type { SidebarNode, SidebarSession } from '@sessionboxer/contracts';

// The rows are the wire's shapes (libs/contracts): the sidebar is what GET /api/sidebar answers.
export type { SidebarNode, SidebarSession };

// Every session sits in one partition, ordered by the position of its creation, so `list` is
// the order sessions were created in and pages by that position.
const PARTITION = 'sessions';

function evolve(
  event: RecordedEvent,
  get: (id: string) => SidebarSession | null,
): DocumentChange<SidebarSession>[] {
  if (!isSessionEvent(event)) return [];
  const { sessionId } = event.data;
  switch (event.type) {
    case 'SessionCreated': {
      const { title, provider, model, environment, createdBy, forkedFrom, at } = event.data;
      const doc: SidebarSession = {
        id: sessionId,
        title,
        status: 'running',
        provider,
        model,
        environment,
        createdAt: at,
        createdBy,
        forkedFrom,
        parentId: createdBy?.sessionId ?? forkedFrom?.sessionId ?? null,
        // Sessions created before repositories existed have neither.
        repos: event.data.repos ?? [],
        branch: event.data.branch ?? null,
        archived: false,
      };
      return [{ id: sessionId, partition: PARTITION, order: event.position, doc }];
    }
    case 'SessionTitleSet':
      return patch(get(sessionId), { title: event.data.title });
    case 'SessionStopped':
      return patch(get(sessionId), { status: 'stopped' });
    case 'SessionResumed':
      return patch(get(sessionId), { status: 'running' });
    case 'SessionArchived':
      return patch(get(sessionId), { archived: true });
    case 'SessionUnarchived':
      return patch(get(sessionId), { archived: false });
    // The row goes; its children show as roots (buildTree's rule for a missing parent).
    case 'SessionDeleted':
      return get(sessionId) === null ? [] : [{ id: sessionId, doc: null }];
    // Not in `handles`: the sidebar shows none of a session's activity.
    case 'SnapshotTaken':
    case 'SessionReverted':
    case 'NotificationSent':
    case 'TerminalOpened':
    case 'TerminalExited':
    case 'PaneRequested':
    case 'RecordingFinished':
    case 'RecordingNarrated':
    case 'TurnSnapshotTaken':
    case 'TerminalOutputRecorded':
    case 'TerminalTypedInto':
    case 'SessionRewound':
      return [];
    default:
      return assertNever(event);
  }
}

/** An event for a session the read model never saw changes nothing (a valid log has none). */
function patch(
  doc: SidebarSession | null,
  fields: Partial<SidebarSession>,
): DocumentChange<SidebarSession>[] {
  return doc === null ? [] : [{ id: doc.id, doc: { ...doc, ...fields } }];
}

export const sidebarTreeProjection: Projection<SidebarSession> = {
  name: 'sidebar_tree',
  // 2: repos and branch. 3: archived, and deleted sessions dropped.
  version: 3,
  handles: SESSION_LIFECYCLE_EVENT_TYPES,
  apply: evolve,
};

/** The sidebar's queries. Read-only: they never write. */
export interface SidebarQueries {
  get(id: string): SidebarSession | null;
  /** Every session, oldest first. */
  list(): SidebarSession[];
  /** Roots (oldest first), each with its children nested (oldest first). */
  tree(): SidebarNode[];
}

export function sidebarQueries(reader: ReadModelReader): SidebarQueries {
  const list = () => reader.list(sidebarTreeProjection, { partition: PARTITION }).map((d) => d.doc);
  return {
    get: (id) => reader.get(sidebarTreeProjection, id),
    list,
    tree: () => buildTree(list()),
  };
}

/**
 * Nests sessions under their parents. A session whose parent is not in the read model is shown
 * as a root rather than hidden; a cycle (impossible from the decider, but this is a read model)
 * is broken the same way, so every session appears exactly once.
 */
export function buildTree(sessions: readonly SidebarSession[]): SidebarNode[] {
  const byId = new Map(sessions.map((s) => [s.id, s]));
  const children = new Map<string, SidebarSession[]>();
  for (const s of sessions) {
    if (s.parentId === null || !byId.has(s.parentId)) continue;
    const siblings = children.get(s.parentId);
    if (siblings === undefined) children.set(s.parentId, [s]);
    else siblings.push(s);
  }
  const placed = new Set<string>();
  const node = (s: SidebarSession): SidebarNode => {
    placed.add(s.id);
    const parent = s.parentId === null ? undefined : byId.get(s.parentId);
    const childOf = parent === undefined ? null : { sessionId: parent.id, title: parent.title };
    const kids = (children.get(s.id) ?? []).filter((c) => !placed.has(c.id));
    return { ...s, childOf, children: kids.map(node) };
  };
  const roots: SidebarNode[] = [];
  for (const s of sessions) {
    const isRoot = s.parentId === null || !byId.has(s.parentId);
    if (isRoot && !placed.has(s.id)) roots.push(node(s));
  }
  for (const s of sessions) if (!placed.has(s.id)) roots.push(node(s));
  return roots;
}
