import { useLayoutEffect, useMemo, useRef } from 'react';
import { useTitleOf } from '../hooks';
import { useStore } from '../store';
import type { Approval, TranscriptEntry } from '../types';
import { ApprovalCard } from './ApprovalCard';
import { Marker } from './Marker';
import { TranscriptEvent } from './TranscriptEvent';

interface Props {
  sessionId: string;
  entries: TranscriptEntry[];
  approvals: Approval[];
  provider: string;
}

/** How near the bottom (px) still counts as following the conversation. */
const FOLLOW_SLACK = 80;

function entryClass(entry: TranscriptEntry): string {
  return entry.kind === 'marker' ? 'entry entry-marker' : `entry entry-${entry.event.type}`;
}

/**
 * The conversation and the markers in the order they happened (by position). It keeps
 * scrolled to the newest entry while the reader is at the bottom.
 */
export function Transcript({ sessionId, entries, approvals, provider }: Props) {
  const titleOf = useTitleOf();
  const username = useStore((s) => s.username);
  const box = useRef<HTMLDivElement>(null);
  const following = useRef(true);

  // A result names its call by id, and harnesses reuse ids across turns: each result takes
  // the name of the last call with its id before it.
  const resultNames = useMemo(() => {
    const calls = new Map<string, string>();
    const names = new Map<number, string>();
    for (const e of entries) {
      if (e.kind !== 'event') continue;
      if (e.event.type === 'tool_call') calls.set(e.event.id, e.event.name);
      const name = e.event.type === 'tool_result' ? calls.get(e.event.id) : undefined;
      if (name !== undefined) names.set(e.position, name);
    }
    return names;
  }, [entries]);

  useLayoutEffect(() => {
    const el = box.current;
    if (el && following.current) el.scrollTop = el.scrollHeight;
  }, [entries.length]);

  const render = (entry: TranscriptEntry) => {
    if (entry.kind === 'event')
      return (
        <TranscriptEvent
          event={entry.event}
          provider={provider}
          toolName={resultNames.get(entry.position)}
          titleOf={titleOf}
          username={username}
        />
      );
    const { marker } = entry;
    if (marker.kind === 'approval-requested' && marker.link && 'approvalId' in marker.link) {
      const id = marker.link.approvalId;
      const approval = approvals.find((a) => a.id === id);
      if (approval)
        return <ApprovalCard sessionId={sessionId} approval={approval} provider={provider} />;
    }
    return <Marker marker={marker} titleOf={titleOf} />;
  };

  return (
    <div
      role="log"
      aria-label="Transcript"
      className="transcript"
      tabIndex={0}
      ref={box}
      onScroll={(e) => {
        const el = e.currentTarget;
        following.current = el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_SLACK;
      }}
    >
      {entries.length === 0 ? (
        <p className="muted">Nothing here yet: send the agent a prompt.</p>
      ) : (
        <ol className="entries">
          {entries.map((entry) => (
            <li key={entry.position} className={entryClass(entry)}>
              {render(entry)}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
