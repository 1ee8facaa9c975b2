import { useCallback, useEffect, useState } from 'react';
import type { SpecConversationEvent } from '@sessionboxer/contracts';
import { errorText, get } from '../../api';
import { ErrorAlert } from '../FormParts';
import { TranscriptEvent } from '../TranscriptEvent';

/** A conversation as agent_conversations lists it. */
interface ConversationRow {
  id: string;
  harness: string;
  model: string;
  status: string;
  turns: number;
  queued: number;
  preview: string | null;
  updated_at: string;
}

/** The spec's harness name → the provider name the transcript shows. */
const PROVIDER: Record<string, string> = { claude: 'claude-code' };

/** One conversation's events, as a session's transcript shows them (read again on demand). */
function ConversationTranscript({
  base,
  conversation,
}: {
  base: string;
  conversation: ConversationRow;
}) {
  const [events, setEvents] = useState<SpecConversationEvent[]>([]);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    get<{ events: SpecConversationEvent[] }>(`${base}/${encodeURIComponent(conversation.id)}`)
      .then((r) => setEvents(r.events))
      .catch((e: unknown) => setError(errorText(e)));
  }, [base, conversation.id]);
  useEffect(load, [load]);
  // Each call shows with its result in one row (the first result naming the call's id).
  const results = new Map(
    events.flatMap((e) => (e.type === 'tool_result' ? [[e.id, e] as const] : [])).reverse(),
  );
  const calls = new Set(events.flatMap((e) => (e.type === 'tool_call' ? [e.id] : [])));
  return (
    <section className="transcript" aria-label={`Transcript of ${conversation.id}`}>
      <ErrorAlert error={error} />
      {events
        .filter((event) => !(event.type === 'tool_result' && calls.has(event.id)))
        .map((event) => (
          <TranscriptEvent
            key={event.seq}
            sessionId={null}
            event={event}
            provider={PROVIDER[conversation.harness] ?? conversation.harness}
            result={event.type === 'tool_call' ? results.get(event.id) : undefined}
            titleOf={() => null}
            username={null}
          />
        ))}
      <button type="button" onClick={load}>
        Refresh
      </button>
    </section>
  );
}

/** A sandbox's coding-agent conversations, each opening as a transcript. */
export function SandboxConversations({ sandbox }: { sandbox: { id: string; name: string } }) {
  const base = `/api/orgs/default/sandboxes/${encodeURIComponent(sandbox.id)}/conversations`;
  const [rows, setRows] = useState<ConversationRow[] | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    get<{ conversations: ConversationRow[] }>(base)
      .then((r) => setRows(r.conversations))
      .catch((e: unknown) => setError(errorText(e)));
  }, [base]);
  const chosen = rows?.find((c) => c.id === open) ?? null;
  return (
    <section className="sandbox-conversations" aria-label={`Conversations of ${sandbox.name}`}>
      <h2>Conversations of {sandbox.name}</h2>
      <ErrorAlert error={error} />
      {rows && rows.length === 0 && <p className="muted">No agent conversations yet.</p>}
      <ul>
        {rows?.map((c) => (
          <li key={c.id}>
            <button type="button" aria-pressed={open === c.id} onClick={() => setOpen(c.id)}>
              {c.preview ?? c.id}
            </button>{' '}
            <span className="muted">
              {c.harness} · {c.model} · {c.status} · {c.turns} turns
              {c.queued > 0 ? ` · ${c.queued} queued` : ''}
            </span>
          </li>
        ))}
      </ul>
      {chosen && <ConversationTranscript key={chosen.id} base={base} conversation={chosen} />}
    </section>
  );
}
