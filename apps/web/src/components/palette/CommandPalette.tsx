import { useEffect, useId, useMemo, useState } from 'react';
import { getState, useStore } from '../../store';
import { Modal } from '../Modal';
import { navigate, parseRoute, sessionPath } from '../../router';
import { getInbox } from '../inbox/inbox-store';
import {
  matching,
  nextNeedingAttention,
  paletteItems,
  typingIn,
  type PaletteItem,
} from './palette-items';

/** Alt+N: to the next session with something unread (the inbox's count per session). */
function goToNextNeedingAttention(): void {
  const route = parseRoute(location.pathname);
  const current = route.name === 'session' ? route.id : null;
  const { sidebar } = getState();
  const next = nextNeedingAttention(sidebar, getInbox().unreadBySession, current);
  if (next !== null) navigate(sessionPath(next));
}

/** The palette's modal dialog, named by `label`. */
function PaletteModal(props: { label: string; onClose: () => void; children: React.ReactNode }) {
  return <Modal className="palette" {...props} />;
}

/** The filter field as a combobox over a listbox; arrows move, Enter runs the active item. */
function Palette({ onClose }: { onClose: () => void }) {
  const nodes = useStore((s) => s.sidebar);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const found = useMemo(() => matching(paletteItems(nodes), query), [nodes, query]);
  const id = useId();
  const run = (item: PaletteItem | undefined) => {
    if (!item) return;
    onClose();
    item.run();
  };
  const current = Math.min(active, found.length - 1);
  return (
    <PaletteModal label="Command palette" onClose={onClose}>
      <input
        role="combobox"
        aria-label="Go to a session, a page or an action"
        aria-expanded="true"
        aria-controls={`${id}-list`}
        aria-activedescendant={current >= 0 ? `${id}-${current}` : undefined}
        autoFocus
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') setActive(Math.min(current + 1, found.length - 1));
          else if (e.key === 'ArrowUp') setActive(Math.max(current - 1, 0));
          else if (e.key === 'Enter') run(found[current]);
          else return;
          e.preventDefault();
        }}
      />
      <ul role="listbox" id={`${id}-list`} aria-label="Results">
        {found.map((item, i) => (
          <li
            key={item.id}
            id={`${id}-${i}`}
            role="option"
            aria-selected={i === current}
            onClick={() => run(item)}
          >
            <span className="palette-group">{item.group}</span> {item.label}
          </li>
        ))}
      </ul>
      {found.length === 0 && <p className="muted">Nothing matches.</p>}
    </PaletteModal>
  );
}

const SHORTCUTS: [string, string][] = [
  ['Ctrl+K or ⌘K', 'Open the command palette'],
  ['/ or Ctrl+/', 'Jump to the prompt'],
  ['Alt+N', 'Next session needing attention (unread in the inbox)'],
  ['Ctrl+Shift+F or ⌘⇧F', 'Search sessions and transcripts'],
  ['?', 'Show these shortcuts'],
  ['Escape', 'Close a dialog'],
];

function ShortcutsHelp({ onClose }: { onClose: () => void }) {
  return (
    <PaletteModal label="Keyboard shortcuts" onClose={onClose}>
      <h2>Keyboard shortcuts</h2>
      <dl className="palette-shortcuts">
        {SHORTCUTS.map(([keys, what]) => (
          <div key={keys}>
            <dt>
              <kbd>{keys}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <button type="button" autoFocus onClick={onClose}>
        Close
      </button>
    </PaletteModal>
  );
}

/**
 * The app's keyboard: Ctrl+K / ⌘K (anywhere) opens the palette; "/" and Ctrl+/ jump to the
 * prompt, Alt+N to the next session needing attention, and "?" lists the shortcuts, but not
 * while typing in a field.
 */
export function CommandPalette() {
  const [open, setOpen] = useState<'palette' | 'help' | null>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (open !== null) return;
      const mod = e.ctrlKey || e.metaKey;
      if (mod && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setOpen('palette');
        return;
      }
      if (typingIn(e.target)) return;
      if (e.altKey && !mod && e.code === 'KeyN') {
        e.preventDefault();
        goToNextNeedingAttention();
        return;
      }
      if (e.altKey) return;
      const prompt = document.getElementById('prompt');
      if ((e.key === '/' && !e.metaKey) || (mod && e.key === '/')) {
        if (!prompt) return;
        e.preventDefault();
        prompt.focus();
      } else if (e.key === '?' && !mod) {
        e.preventDefault();
        setOpen('help');
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);
  if (open === 'palette') return <Palette onClose={() => setOpen(null)} />;
  if (open === 'help') return <ShortcutsHelp onClose={() => setOpen(null)} />;
  return null;
}
