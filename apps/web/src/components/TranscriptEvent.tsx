import { actorName, providerName } from '../format';
import type { Actor, SpecConversationEvent } from '@sessionboxer/contracts';

interface Props {
  event: SpecConversationEvent;
  provider: string;
  /** The tool call's name, for a result (results name only the call's id). */
  toolName: string | undefined;
  titleOf: (sessionId: string) => string | null;
  username: string | null;
}

function promptFrom(from: Actor, username: string | null, titleOf: Props['titleOf']): string {
  if (from.kind === 'person') return from.id === username || username === null ? 'You' : from.id;
  return actorName(from, titleOf);
}

function json(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

type PromptEvent = Extract<SpecConversationEvent, { type: 'prompt' }>;

/** A prompt: who sent it, its text, and the briefing it came with (folded). */
function PromptBubble({ event, who }: { event: PromptEvent; who: string }) {
  return (
    <div className="bubble prompt">
      <p className="who">{who}</p>
      <div className="text">{event.text}</div>
      {event.briefing && (
        <details>
          <summary>Briefing</summary>
          <pre>{event.briefing}</pre>
        </details>
      )}
    </div>
  );
}

/** A tool call or result, folded: its summary line, and the input or output under it. */
function ToolDetails({ summary, body, error }: { summary: string; body: string; error?: boolean }) {
  return (
    <details className={error ? 'tool tool-error' : 'tool'}>
      <summary>{summary}</summary>
      <pre>{body}</pre>
    </details>
  );
}

/** One event of the agent's conversation: a prompt, a message, a tool call or result, … */
export function TranscriptEvent({ event, provider, toolName, titleOf, username }: Props) {
  switch (event.type) {
    case 'prompt':
      return <PromptBubble event={event} who={promptFrom(event.from, username, titleOf)} />;
    case 'message':
      return (
        <div className="bubble message">
          <p className="who">{providerName(provider)}</p>
          <div className="text">{event.text}</div>
        </div>
      );
    case 'tool_call':
      return <ToolDetails summary={`Tool call: ${event.name}`} body={json(event.input)} />;
    case 'tool_result':
      return (
        <ToolDetails
          summary={`${event.error ? 'Tool error' : 'Tool result'}: ${toolName ?? event.id}`}
          body={event.output}
          error={event.error}
        />
      );
    case 'error':
      return (
        <p className="event-error">
          <strong>Error</strong> ({event.code}): {event.message}
        </p>
      );
    case 'turn_finished':
      return (
        <p className="turn-end">
          Turn {event.turn} {event.status} · {event.input_tokens} tokens in, {event.output_tokens}{' '}
          out
        </p>
      );
  }
}
