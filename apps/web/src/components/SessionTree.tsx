import { useMemo, useState, type KeyboardEvent } from 'react';
import { navigate, sessionPath } from '../router';
import { useStore } from '../store';
import { activityOf, turnRunning } from '../view-state';
import { useInbox } from './inbox/inbox-store';
import '../styles/inbox.css';
import type { SidebarNode } from '@sessionboxer/contracts';

/** Arrow keys move between the visible items, in the order they are shown. */
function moveFocus(from: HTMLElement, step: number): void {
  const tree = from.closest('[role="tree"]');
  if (!tree) return;
  const items = Array.from(tree.querySelectorAll<HTMLElement>('[role="treeitem"]'));
  items[items.indexOf(from) + step]?.focus();
}

interface ItemProps {
  node: SidebarNode;
  currentId: string | null;
  level: number;
}

/** Enter or Space opens the session, Right / Left expand and collapse, Down / Up move. */
function treeKeys(open: () => void, setExpanded: ((expanded: boolean) => void) | null) {
  return (e: KeyboardEvent) => {
    if (e.target !== e.currentTarget) return;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      open();
    } else if (e.key === 'ArrowRight' && setExpanded) setExpanded(true);
    else if (e.key === 'ArrowLeft' && setExpanded) setExpanded(false);
    else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      moveFocus(e.currentTarget as HTMLElement, e.key === 'ArrowDown' ? 1 : -1);
    }
  };
}

interface RowProps {
  node: SidebarNode;
  /** Whether its group shows; undefined for a session without children (no twisty). */
  expanded: boolean | undefined;
  onOpen: () => void;
  onToggle: () => void;
}

/** How many of the inbox's items in this session are unread (none: nothing shown). */
function InboxBadge({ sessionId }: { sessionId: string }) {
  const unread = useInbox().unreadBySession[sessionId] ?? 0;
  if (unread === 0) return null;
  return (
    <>
      {' '}
      <span className="inbox-badge">{unread} unread</span>
    </>
  );
}

/** The session's line: a twisty for its children, title, status, and whose child it is. */
function TreeRow({ node, expanded, onOpen, onToggle }: RowProps) {
  // The open session's transcript tells whether its agent is working; other rows say only
  // running or stopped (the tree's frames carry no turn state).
  const entries = useStore((s) => (s.view?.sessionId === node.id ? s.view.entries : null));
  const status = useMemo(
    () => (entries === null ? node.status : activityOf(node.status, turnRunning(entries))),
    [entries, node.status],
  );
  return (
    <div
      className="tree-row"
      onClick={(e) => {
        e.stopPropagation();
        onOpen();
      }}
    >
      {expanded !== undefined && (
        <span
          className="twisty"
          aria-hidden="true"
          onClick={(e) => {
            e.stopPropagation();
            onToggle();
          }}
        >
          {expanded ? '▾' : '▸'}
        </span>
      )}
      <span className="tree-title">{node.title}</span>{' '}
      <span className={`status status-${status}`}>{status}</span>{' '}
      {node.childOf && <span className="child-of">child of {node.childOf.title}</span>}
      <InboxBadge sessionId={node.id} />
    </div>
  );
}

/**
 * One session: a treeitem named from its content, which starts with its title and its
 * status. Its children sit in its group.
 */
function TreeItem({ node, currentId, level }: ItemProps) {
  const [expanded, setExpanded] = useState(true);
  const hasChildren = node.children.length > 0;
  const current = node.id === currentId;
  const open = () => navigate(sessionPath(node.id));
  return (
    <li
      role="treeitem"
      aria-selected={current}
      aria-expanded={hasChildren ? expanded : undefined}
      aria-level={level}
      tabIndex={current || (currentId === null && level === 1) ? 0 : -1}
      className={current ? 'tree-item current' : 'tree-item'}
      onKeyDown={treeKeys(open, hasChildren ? setExpanded : null)}
    >
      <TreeRow
        node={node}
        expanded={hasChildren ? expanded : undefined}
        onOpen={open}
        onToggle={() => setExpanded((x) => !x)}
      />
      {hasChildren && expanded && (
        <ul role="group">
          {node.children.map((child) => (
            <TreeItem key={child.id} node={child} currentId={currentId} level={level + 1} />
          ))}
        </ul>
      )}
    </li>
  );
}

export function SessionTree({
  nodes,
  currentId,
}: {
  nodes: SidebarNode[];
  currentId: string | null;
}) {
  return (
    <ul role="tree" aria-label="Sessions" className="tree">
      {nodes.map((node) => (
        <TreeItem key={node.id} node={node} currentId={currentId} level={1} />
      ))}
    </ul>
  );
}
