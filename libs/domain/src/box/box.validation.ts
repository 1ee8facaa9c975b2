import { absolutePath, cut, exactId, invalid, oneOf } from '../kernel/validation';
import { type AdoptedProcesses, BOX_ISOLATIONS, type BoxIsolation } from './box.commands';

const REASON_MAX_LENGTH = 1000;

export function validSessionId(value: unknown): string {
  return exactId(value, 'sessionId');
}

/** Host paths of the Linux box (also for Windows and macOS sessions: the guest runs inside). */
export function validBoxPath(value: unknown, field: 'workspacePath' | 'mcpJsonPath'): string {
  return absolutePath(value, field);
}

export function validAdopted(value: unknown): AdoptedProcesses {
  return oneOf(value, 'processes', ['running', 'frozen'] as const);
}

export function validPid(value: unknown): number {
  if (!Number.isInteger(value) || (value as number) < 1) {
    throw invalid('pid', 'pid must be a positive integer');
  }
  return value as number;
}

export function validIsolation(value: unknown): BoxIsolation {
  return oneOf(value, 'isolation', BOX_ISOLATIONS);
}

/**
 * Usually a driver's error message, often multi-line and long. The failure is a fact, so the
 * reason is made one line and cut rather than refused; only a missing reason is.
 */
export function validFailureReason(value: unknown): string {
  if (typeof value !== 'string') throw invalid('reason', 'reason must be a string');
  const line = value.replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ').trim();
  if (line.length === 0) throw invalid('reason', 'reason must say why the box failed');
  return cut(line, REASON_MAX_LENGTH);
}
