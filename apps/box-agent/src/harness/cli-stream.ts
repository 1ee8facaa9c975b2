import type { ContextUse, HarnessOutput } from '@sessionboxer/domain';
import type { StreamParser } from './harness.port';

/**
 * What the claude-code and opencode adapters share when they read a CLI's JSON-lines stdout:
 * tolerant field access (a CLI's output is input we do not control, so a missing or oddly typed
 * field yields nothing rather than a throw), the error codes a failed turn carries, and the
 * outputs owed when the process died before its stream said how the turn ended.
 */

export type Json = Record<string, unknown>;
export type Exit = Parameters<StreamParser['end']>[0];

/** The codes of the `error` outputs these adapters emit (the turn then fails). */
export type HarnessErrorCode =
  'agent_failed' | 'credentials_invalid' | 'rate_limited' | 'max_turns';

/** One stdout line as a JSON object, or null: a log line, a partial write, an array. */
export function jsonLine(line: string): Json | null {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{')) return null;
  try {
    return obj(JSON.parse(trimmed));
  } catch {
    return null;
  }
}

export function obj(value: unknown): Json | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Json)
    : null;
}

export function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? (value as unknown[]) : [];
}

/** A token count: a non-negative integer, else 0 (the domain refuses anything else). */
export function count(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}

const CREDENTIALS =
  /invalid[ _-]?(x-)?api[ _-]?key|authentication[ _-](error|failed)|unauthori[sz]ed|\b40[13]\b|please run \/login|oauth token (has )?(expired|been revoked)/i;
const RATE_LIMITED = /\b429\b|\b529\b|rate[ _-]?limit|overloaded|too many requests|usage limit/i;

/** The code for an error the CLI described in words (an API error's text, say). */
export function codeOf(description: string): HarnessErrorCode {
  if (CREDENTIALS.test(description)) return 'credentials_invalid';
  if (RATE_LIMITED.test(description)) return 'rate_limited';
  return 'agent_failed';
}

export interface TurnTotals {
  input: number;
  output: number;
  usage: Json | null;
  context: ContextUse | null;
  /** What the CLI said the turn cost, in dollars (absent: it did not say). */
  costUsd?: number;
}

/** A dollar amount a CLI reported: a finite non-negative number, else unknown. */
export function dollars(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

export const NO_TOKENS: TurnTotals = { input: 0, output: 0, usage: null, context: null };

export function turnFinished(status: 'finished' | 'failed', totals: TurnTotals): HarnessOutput {
  return {
    type: 'turn_finished',
    status,
    input_tokens: totals.input,
    output_tokens: totals.output,
    usage: totals.usage,
    context: totals.context,
    ...(totals.costUsd === undefined ? {} : { cost_usd: totals.costUsd }),
  };
}

/** The CLI's own session id, reported once per turn from the first line that carries it. */
export class SessionNote {
  private noted = false;

  take(id: unknown): HarnessOutput[] {
    if (this.noted || typeof id !== 'string' || id === '') return [];
    this.noted = true;
    return [{ type: 'harness_session', id }];
  }
}

/** The last `lines` non-empty lines of stderr: where a CLI says why it died. */
export function stderrTail(stderr: string, lines = 5): string {
  const all = stderr.split(/\r?\n/).filter((l) => l.trim() !== '');
  return all.slice(-lines).join('\n');
}

/**
 * What `end` owes when the stream never said how the turn ended (a crash, a kill): an error
 * naming the CLI, how it exited and what it last wrote to stderr, then the failed turn. Token
 * totals are unknown then; what the stream did show of usage windows and context is kept.
 */
export function crashOutputs(cli: string, exit: Exit, known: TurnTotals): HarnessOutput[] {
  const how =
    exit.signal !== null ? `was killed by ${exit.signal}` : `exited with code ${exit.code ?? '?'}`;
  const tail = stderrTail(exit.stderr);
  const message = `${cli} ${how} before reporting the turn's result. ${
    tail === '' ? 'It wrote nothing to stderr.' : `Last lines of stderr:\n${tail}`
  }`;
  return [
    { type: 'error', code: 'agent_failed', message },
    turnFinished('failed', { ...NO_TOKENS, usage: known.usage, context: known.context }),
  ];
}
