import { ErrorCode } from '@sessionboxer/domain';
import { parseJsonFrame } from './json-policy';

/** A socket frame as a handler takes it, or the `error` frame's data that refuses it. */
export type ReadFrame =
  | { ok: true; event: string; data: unknown }
  | { ok: false; error: { code: ErrorCode; message: string; field?: string } };

const ENVELOPE = 'a frame is JSON {event, data}';

/**
 * One frame of the web UI's or a box's socket (`{event, data}` as text), read under the JSON
 * policy: too large, not JSON, too deep or ill-formed Unicode, not an envelope, or an event
 * this socket has no handler for are each refused with a message that says which.
 */
export function readFrame(raw: unknown, events: readonly string[]): ReadFrame {
  if (typeof raw !== 'string' && !Buffer.isBuffer(raw)) return refuse(`${ENVELOPE} sent as text`);
  const parsed = parseJsonFrame(raw);
  if (!parsed.ok) {
    const { code, message, field } = parsed.refusal;
    return { ok: false, error: { code, message, ...(field === undefined ? {} : { field }) } };
  }
  const frame = parsed.value as { event?: unknown; data?: unknown } | null;
  if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) return refuse(ENVELOPE);
  if (typeof frame.event !== 'string') return refuse(`${ENVELOPE}: event must be a string`);
  if (!events.includes(frame.event)) {
    return refuse(
      `unknown event ${JSON.stringify(frame.event.slice(0, 100))}: this socket takes ${events.join(', ')}`,
    );
  }
  return { ok: true, event: frame.event, data: frame.data };
}

function refuse(message: string): ReadFrame {
  return { ok: false, error: { code: ErrorCode.ValidationFailed, message } };
}
