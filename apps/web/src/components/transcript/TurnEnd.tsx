import { useMemo } from 'react';
import type { SpecConversationEvent } from '@sessionboxer/contracts';
import { post } from '../../api';
import { useAction } from '../../hooks';
import { useStore } from '../../store';
import { ErrorAlert } from '../FormParts';

type TurnFinished = Extract<SpecConversationEvent, { type: 'turn_finished' }>;

/** Dollars as a person reads them: four decimals below a dollar, else cents. */
export function dollars(usd: number): string {
  return usd < 1 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/** The text of the prompt that started this session's turn `turn`, if the transcript holds it. */
function usePromptOf(turn: number): string | null {
  return useStore((s) => {
    for (const entry of s.view?.entries ?? [])
      if (entry.kind === 'event' && entry.event.type === 'prompt' && entry.event.turn === turn)
        return entry.event.text;
    return null;
  });
}

/** A failed turn's Retry: sends its prompt again (queued if a turn runs now). */
function Retry({ sessionId, turn }: { sessionId: string; turn: number }) {
  const text = usePromptOf(turn);
  const { busy, error, run } = useAction();
  if (text === null) return null;
  return (
    <>
      <button
        type="button"
        disabled={busy}
        onClick={() => void run(() => post(`/api/sessions/${sessionId}/prompts`, { text }))}
      >
        Retry turn {turn}
      </button>
      <ErrorAlert error={error} />
    </>
  );
}

/**
 * The end of a turn: how it ended, its tokens and (when the CLI said) its cost; a failed one
 * offers Retry in a session (not in a sandbox's conversation, which has no prompt box here).
 */
export function TurnEnd({ event, sessionId }: { event: TurnFinished; sessionId: string | null }) {
  const cost = event.cost_usd === undefined ? '' : ` · ${dollars(event.cost_usd)}`;
  return (
    <div className="turn-end">
      <p>
        Turn {event.turn} {event.status} · {event.input_tokens} tokens in, {event.output_tokens} out
        {cost}
      </p>
      {event.status === 'failed' && sessionId !== null && (
        <Retry sessionId={sessionId} turn={event.turn} />
      )}
    </div>
  );
}

/** The session's totals over its finished turns (the whole transcript is loaded). */
export function SessionUsage({ sessionId }: { sessionId: string }) {
  const entries = useStore((s) => (s.view?.sessionId === sessionId ? s.view.entries : null));
  const totals = useMemo(() => {
    let turns = 0;
    let input = 0;
    let output = 0;
    let cost: number | null = null;
    for (const entry of entries ?? []) {
      if (entry.kind !== 'event' || entry.event.type !== 'turn_finished') continue;
      turns++;
      input += entry.event.input_tokens;
      output += entry.event.output_tokens;
      if (entry.event.cost_usd !== undefined) cost = (cost ?? 0) + entry.event.cost_usd;
    }
    return { turns, input, output, cost };
  }, [entries]);
  if (totals.turns === 0) return null;
  const { turns, input, output, cost } = totals;
  return (
    <p className="muted session-usage" aria-label="Session usage">
      {turns} {turns === 1 ? 'turn' : 'turns'} · {input.toLocaleString()} tokens in,{' '}
      {output.toLocaleString()} out{cost === null ? '' : ` · ${dollars(cost)}`}
    </p>
  );
}
