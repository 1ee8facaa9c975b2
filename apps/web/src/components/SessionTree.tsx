import { useState, type KeyboardEvent } from 'react';
import { navigate, sessionPath } from '../router';
import type { SidebarNode } from '../types';

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

/**
 * One session: a treeitem named from its content, which starts with its title and its
 * status. Its children sit in its group.
 */
function TreeItem({ node, currentId, level }: ItemProps) {
  const [expanded, setExpanded] = useState(true);
  const hasChildren = node.children.length > 0;
  const current = node.id === currentId;
  const open = () => navigate(sessionPath(node.id));
  const onKey = (e: KeyboardEvent) => {
    if (e.target !== e.currentTarget) return;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      open();
    } else if (e.key === 'ArrowRight' && hasChildren) setExpanded(true);
    else if (e.key === 'ArrowLeft' && hasChildren) setExpanded(false);
    else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      moveFocus(e.currentTarget as HTMLElement, e.key === 'ArrowDown' ? 1 : -1);
    }
  };
  return (
    <li
      role="treeitem"
      aria-selected={current}
      aria-expanded={hasChildren ? expanded : undefined}
      aria-level={level}
      tabIndex={current || (currentId === null && level === 1) ? 0 : -1}
      className={current ? 'tree-item current' : 'tree-item'}
      onKeyDown={onKey}
    >
      <div
        className="tree-row"
        onClick={(e) => {
          e.stopPropagation();
          open();
        }}
      >
        {hasChildren && (
          <span
            className="twisty"
            aria-hidden="true"
            onClick={(e) => {
              e.stopPropagation();
              setExpanded((x) => !x);
            }}
          >
            {expanded ? '▾' : '▸'}
          </span>
        )}
        <span className="tree-title">{node.title}</span>{' '}
        <span className={`status status-${node.status}`}>{node.status}</span>{' '}
        {node.childOf && <span className="child-of">child of {node.childOf.title}</span>}
      </div>
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
