import type { SidebarNode } from '@sessionboxer/contracts';
import { navigate, sessionPath } from '../../router';

/** One thing the palette can do: its label (what the filter matches) and what it runs. */
export interface PaletteItem {
  id: string;
  label: string;
  group: 'Session' | 'Page' | 'Action';
  run: () => void;
}

function flatten(nodes: SidebarNode[]): SidebarNode[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children)]);
}

/** The sidebar's New session button: the palette opens the same form. */
function openNewSession(): void {
  navigate('/');
  document.querySelector<HTMLButtonElement>('[aria-controls="new-session-form"]')?.click();
}

/** Sessions by title (archived ones too: jumping to one is how you reach it), pages, actions. */
export function paletteItems(nodes: SidebarNode[] | null): PaletteItem[] {
  const sessions = flatten(nodes ?? []).map((s): PaletteItem => ({
    id: `session-${s.id}`,
    label: s.title,
    group: 'Session',
    run: () => navigate(sessionPath(s.id)),
  }));
  const page = (label: string, path: string): PaletteItem => ({
    id: `page-${path}`,
    label,
    group: 'Page',
    run: () => navigate(path),
  });
  return [
    ...sessions,
    page('Inbox', '/inbox'),
    page('Settings', '/settings'),
    page('Terminals', '/terminals'),
    page('Sandboxes', '/sandboxes'),
    { id: 'action-new', label: 'New session', group: 'Action', run: openNewSession },
  ];
}

/** Case-insensitive: every word of the query somewhere in the label. */
export function matching(items: PaletteItem[], query: string): PaletteItem[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return items.filter((i) => words.every((w) => i.label.toLowerCase().includes(w)));
}

/** Typing in a field (or an editable element): a shortcut must not take the key. */
export function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/**
 * The next session, in the tree's order after `currentId` (wrapping round), that has unread
 * inbox items: a pending approval, a notification or a failed turn. Null when none has.
 */
export function nextNeedingAttention(
  nodes: SidebarNode[] | null,
  unreadBySession: Record<string, number>,
  currentId: string | null,
): string | null {
  const order = flatten(nodes ?? []).map((n) => n.id);
  const from = currentId === null ? -1 : order.indexOf(currentId);
  for (let step = 1; step <= order.length; step++) {
    const id = order[(from + step + order.length) % order.length];
    if ((unreadBySession[id] ?? 0) > 0) return id;
  }
  return null;
}
