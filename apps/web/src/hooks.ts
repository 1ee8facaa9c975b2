import { useCallback, useEffect, useRef, useState } from 'react';
import { useStore } from './store';
import type { SidebarNode } from '@sessionboxer/contracts';

/** The current time, ticking every `ms` while the component is shown (a display timer). */
export function useNow(ms = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), ms);
    return () => window.clearInterval(timer);
  }, [ms]);
  return now;
}

function find(nodes: SidebarNode[], id: string): SidebarNode | null {
  for (const node of nodes) {
    if (node.id === id) return node;
    const child = find(node.children, id);
    if (child) return child;
  }
  return null;
}

/** A session as the sidebar tree has it, or null. */
export function sessionNode(nodes: SidebarNode[] | null, id: string): SidebarNode | null {
  return nodes === null ? null : find(nodes, id);
}

/**
 * A function naming sessions by their current title (null for one the tree lacks). The same
 * function until the tree changes, so the transcript's memoized rows keep still meanwhile.
 */
export function useTitleOf(): (sessionId: string) => string | null {
  const sidebar = useStore((s) => s.sidebar);
  return useCallback((id: string) => sessionNode(sidebar, id)?.title ?? null, [sidebar]);
}

/** An action's state for a button: busy while it runs, and the error it ended with. */
export function useAction(): {
  busy: boolean;
  error: string | null;
  run: (action: () => Promise<unknown>) => Promise<void>;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}

/** An action that saves a form: as useAction, and whether the last save went through. */
export function useSave(): ReturnType<typeof useAction> & {
  saved: boolean;
  /** The form changed since: its last "Saved" no longer describes what it shows. */
  unsaved: () => void;
} {
  const { busy, error, run } = useAction();
  const [saved, setSaved] = useState(false);
  const save = (action: () => Promise<unknown>) =>
    run(async () => {
      setSaved(false);
      await action();
      setSaved(true);
    });
  return { busy, error, run: save, saved, unsaved: () => setSaved(false) };
}

/** A ref to an element scrolled into view whenever `focused` turns true (a marker's link). */
export function useRevealWhen<T extends HTMLElement>(focused: boolean) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (focused) ref.current?.scrollIntoView({ block: 'nearest' });
  }, [focused]);
  return ref;
}

/**
 * A checkbox saved to the server as soon as it is clicked: it shows the value asked for while the
 * save runs (so the click is seen at once), then the server's value again; if the save failed,
 * that is the old value, and `error` says why.
 */
export function useSavedToggle(
  current: boolean,
  save: (next: boolean) => Promise<unknown>,
): { checked: boolean; busy: boolean; error: string | null; set: (next: boolean) => void } {
  const { busy, error, run } = useAction();
  const [asked, setAsked] = useState<boolean | null>(null);
  const set = (next: boolean) => {
    setAsked(next);
    void run(async () => {
      try {
        await save(next);
      } finally {
        setAsked(null);
      }
    });
  };
  return { checked: asked ?? current, busy, error, set };
}
