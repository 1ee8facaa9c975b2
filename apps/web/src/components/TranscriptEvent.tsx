import { actorName, providerName } from '../format';
import type { Actor, SpecConversationEvent } from '@sessionboxer/contracts';
import { Markdown } from './transcript/Markdown';
import { videoPaths } from './transcript/media';
import { ToolRow } from './transcript/ToolRow';
import { TurnEnd } from './transcript/TurnEnd';
import { Video } from './Video';

type ToolResult = Extract<SpecConversationEvent, { type: 'tool_result' }>;

interface Props {
  /** Whose files the images and videos are; null where there is no session (a sandbox). */
  sessionId: string | null;
  event: SpecConversationEvent;
  provider: string;
  /** For a tool call: its result, once it came (the two show as one row). */
  result: ToolResult | undefined;
  titleOf: (sessionId: string) => string | null;
  username: string | null;
}

function promptFrom(from: Actor, username: string | null, titleOf: Props['titleOf']): string {
  if (from.kind === 'person') return from.id === username || username === null ? 'You' : from.id;
  return actorName(from, titleOf);
}

type PromptEvent = Extract<SpecConversationEvent, { type: 'prompt' }>;

/** A prompt: who sent it, its text, and the briefing it came with (folded). */
function PromptBubble({ event, who }: { event: PromptEvent; who: string }) {
  return (
    <div className="bubble prompt">
      <p className="who">{who}</p>
      {/* A prompt an agent sent (another session's) is agent text: markdown like a reply. */}
      {event.from.kind === 'person' ? (
        <div className="text">{event.text}</div>
      ) : (
        <Markdown text={event.text} />
      )}
      {event.briefing && (
        <details>
          <summary>Briefing</summary>
          <pre>{event.briefing}</pre>
        </details>
      )}
    </div>
  );
}

/** An agent's reply: markdown, and a player for each /workspace/….mp4 it names. */
function Reply({ sessionId, text, who }: { sessionId: string | null; text: string; who: string }) {
  const videos = sessionId === null ? [] : videoPaths(text);
  return (
    <div className="bubble message">
      <p className="who">{who}</p>
      <Markdown text={text} />
      {videos.map((path) => (
        <Video
          key={path}
          sessionId={sessionId ?? ''}
          path={path}
          label={`Video ${path}`}
          track={null}
        />
      ))}
    </div>
  );
}

/** One event of the agent's conversation: a prompt, a message, a tool call or result, … */
export function TranscriptEvent({ sessionId, event, provider, result, titleOf, username }: Props) {
  switch (event.type) {
    case 'prompt':
      return <PromptBubble event={event} who={promptFrom(event.from, username, titleOf)} />;
    case 'message':
      return <Reply sessionId={sessionId} text={event.text} who={providerName(provider)} />;
    case 'tool_call':
      return <ToolRow sessionId={sessionId} call={event} result={result} />;
    case 'tool_result':
      // A result whose call is not in the transcript (merged ones are not shown alone).
      return <ToolRow sessionId={sessionId} call={null} result={event} />;
    case 'error':
      return (
        <p className="event-error">
          <strong>Error</strong> ({event.code}): {event.message}
        </p>
      );
    case 'turn_finished':
      return <TurnEnd event={event} sessionId={sessionId} />;
  }
}
