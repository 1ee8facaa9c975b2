import { fileUrl } from '../../api';
import type { SpecConversationEvent } from '@sessionboxer/contracts';
import { splitImages } from './media';
import { readableToolName } from './tool-name';
import { ZoomableImage } from './ZoomableImage';

type Call = Extract<SpecConversationEvent, { type: 'tool_call' }>;
type Result = Extract<SpecConversationEvent, { type: 'tool_result' }>;

function json(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

function statusOf(result: Result | undefined): 'running' | 'ok' | 'error' {
  if (!result) return 'running';
  return result.error ? 'error' : 'ok';
}

interface Props {
  /** Whose files the images are; null where there is no session (no images shown). */
  sessionId: string | null;
  /** Null for a result whose call is not in the transcript. */
  call: Call | null;
  result: Result | undefined;
}

/**
 * A tool call and its result in one row: the tool's readable name, its status (running until
 * the result comes, then ok or error), the input and the output folded, and any images the
 * result carries shown under it.
 */
export function ToolRow({ sessionId, call, result }: Props) {
  const status = statusOf(result);
  const name = readableToolName(call?.name ?? result?.id ?? 'tool');
  const output = result ? splitImages(result.output) : null;
  return (
    <div className={`tool tool-${status}`}>
      <p className="tool-head">
        <span className="tool-name">{name}</span>
        <span className={`tool-status status-${status}`}>{status}</span>
      </p>
      {call && (
        <details className="tool-part">
          <summary>Input</summary>
          <pre tabIndex={0}>{json(call.input)}</pre>
        </details>
      )}
      {output && (
        <details className="tool-part">
          <summary>{result?.error ? 'Error' : 'Output'}</summary>
          <pre tabIndex={0}>{output.text || '(no text)'}</pre>
        </details>
      )}
      {sessionId !== null &&
        output?.images.map((path, i) => (
          <ZoomableImage
            key={path}
            src={fileUrl(sessionId, path)}
            alt={`Image ${i + 1} from ${name}`}
          />
        ))}
    </div>
  );
}
