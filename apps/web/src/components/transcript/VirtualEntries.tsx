import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, type ReactNode, type RefObject } from 'react';
import type { TranscriptEntry } from '@sessionboxer/contracts';

/** From this many rows on, only those in view (and a few around) are in the page. */
export const VIRTUAL_FROM = 200;

/** Asks the transcript to bring the entry at `position` into view (the timeline's links). */
export const REVEAL_EVENT = 'sessionboxer:reveal-entry';

interface Props {
  rows: TranscriptEntry[];
  box: RefObject<HTMLDivElement | null>;
  /** Whether the reader is at the bottom (the view then follows new rows). */
  following: RefObject<boolean>;
  /**
   * The first load is still bringing pages (oldest first): the view waits for the last one
   * before going to the end, rather than chase each page's end and mount its rows for nothing.
   */
  loading: boolean;
  className: (entry: TranscriptEntry) => string;
  render: (entry: TranscriptEntry) => ReactNode;
}

/** A row's height before it is drawn (a one-line message); each is measured once drawn. */
const estimateSize = () => 56;

type Virtual = ReturnType<typeof useVirtualizer<HTMLDivElement, Element>>;

/**
 * Home and End on the focused log go to the first and the newest row. The browser's own would
 * scroll smoothly, and the virtualizer's corrections as rows are measured cut that short.
 */
function useKeys(box: RefObject<HTMLDivElement | null>, virtual: Virtual, count: number) {
  useEffect(() => {
    const el = box.current;
    const onKey = (e: KeyboardEvent) => {
      if (e.target !== el || (e.key !== 'Home' && e.key !== 'End')) return;
      e.preventDefault();
      if (e.key === 'Home') virtual.scrollToIndex(0, { align: 'start' });
      else virtual.scrollToIndex(count - 1, { align: 'end' });
    };
    el?.addEventListener('keydown', onKey);
    return () => el?.removeEventListener('keydown', onKey);
  }, [box, virtual, count]);
}

/**
 * A long transcript, virtualized (@tanstack/react-virtual): each row is measured as drawn, the
 * list keeps its full height so the scroll bar tells where you are, and the view sticks to the
 * newest row while the reader is at the bottom. Rows keep their `entry-<position>` ids.
 */
export function VirtualEntries({ rows, box, following, loading, className, render }: Props) {
  // The key function changes only with the rows: the virtualizer lays all rows out again
  // (10,000 of them in a long session) whenever it changes, and a new one each render made
  // every scroll's render do that.
  const getItemKey = useCallback((i: number) => rows[i].position, [rows]);
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => box.current,
    estimateSize,
    overscan: 6,
    getItemKey,
  });
  // The one place that follows the newest row (the plain list's follower leaves it to this).
  useLayoutEffect(() => {
    if (following.current && !loading && rows.length > 0)
      virtual.scrollToIndex(rows.length - 1, { align: 'end' });
  }, [rows.length, loading, virtual, following]);
  useEffect(() => {
    const reveal = (e: Event) => {
      const index = rows.findIndex((r) => r.position === (e as CustomEvent<number>).detail);
      if (index >= 0) virtual.scrollToIndex(index, { align: 'center' });
    };
    window.addEventListener(REVEAL_EVENT, reveal);
    return () => window.removeEventListener(REVEAL_EVENT, reveal);
  }, [rows, virtual]);
  useKeys(box, virtual, rows.length);
  return (
    <ol className="entries entries-virtual" style={{ height: virtual.getTotalSize() }}>
      {virtual.getVirtualItems().map((item) => {
        const entry = rows[item.index];
        return (
          <li
            key={item.key}
            data-index={item.index}
            ref={virtual.measureElement}
            id={`entry-${entry.position}`}
            className={className(entry)}
            style={{ transform: `translateY(${item.start}px)` }}
          >
            {render(entry)}
          </li>
        );
      })}
    </ol>
  );
}
