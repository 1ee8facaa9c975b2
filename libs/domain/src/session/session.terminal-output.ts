import { DomainError, ErrorCode } from '../kernel';
import { exactId, has, integer, invalid } from '../kernel/validation';
import type { RecordTerminalOutput } from './session.commands';
import type { SessionEvent } from './session.events';
import { existingSession, type SessionState } from './session.state';

/** One batch at most: 64 KiB of output (its base64 is a third longer). */
export const TERMINAL_OUTPUT_BATCH_MAX = 64 * 1024;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The byte count a base64 text decodes to (the domain has no Buffer). */
function decodedLength(data: unknown): number {
  if (typeof data !== 'string' || data.length === 0 || !BASE64.test(data)) {
    throw invalid('data', 'data must be the output bytes in base64, not empty');
  }
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  const length = (data.length / 4) * 3 - padding;
  if (length > TERMINAL_OUTPUT_BATCH_MAX) {
    throw invalid(
      'data',
      `a batch holds at most ${TERMINAL_OUTPUT_BATCH_MAX} bytes (got ${length})`,
    );
  }
  return length;
}

/**
 * Output of a Terminal the session has. A batch that starts before what is already recorded
 * is one the box sent again (a reconnect): it records nothing. One after a gap (the box
 * dropped some while cut off) is recorded where it is, so the gap shows in the offsets.
 */
export function terminalOutput(command: RecordTerminalOutput, state: SessionState): SessionEvent[] {
  const { data, metadata } = command;
  const session = existingSession(state, data.sessionId);
  const terminalId = exactId(data.terminalId, 'terminalId');
  if (!has(session.terminals, terminalId)) {
    throw new DomainError(
      ErrorCode.NotFound,
      `session ${session.sessionId} has no Terminal ${terminalId}`,
      { sessionId: session.sessionId, terminalId },
    );
  }
  const offset = integer(data.offset, 'offset', 0, Number.MAX_SAFE_INTEGER);
  const length = decodedLength(data.data);
  const recorded = session.terminalBytes?.[terminalId] ?? 0;
  if (offset < recorded) return [];
  const event = {
    sessionId: session.sessionId,
    terminalId,
    offset,
    length,
    data: data.data,
    at: metadata.at,
  };
  return [{ type: 'TerminalOutputRecorded', data: event }];
}
