import { characters, cut, integer, invalid, isPlainObject, oneOf } from '../kernel/validation';
import type { HarnessOutput } from './conversation.commands';
import { HARNESS_NAMES, MODEL_NAME_MAX_LENGTH, type HarnessName } from '../limits';
import { TURN_STATUSES } from './conversation.events';

/** The spec's agent_prompt limit. */
export const PROMPT_MAX_LENGTH = 262_144;
/** The spec cuts a tool_result's output here. */
export const TOOL_OUTPUT_MAX = 65_536;
/** An agent's message longer than this is cut (a runaway harness must not fill the log). */
export const MESSAGE_MAX_LENGTH = 262_144;
/** A tool call's input, as JSON, beyond which it is replaced by a note saying so. */
export const TOOL_INPUT_MAX_JSON = 65_536;
/** Prompts that may wait at once behind the running turn. */
export const QUEUE_MAX = 100;
/** Outputs one RecordHarnessOutput may carry. */
export const OUTPUT_BATCH_MAX = 1_000;

const NUL_OR_SURROGATE = /[\0\p{Cs}]/u;

/**
 * Prompt text: several lines are fine (it is what a person types), but not empty, not over
 * the limit, and no NUL or half an emoji, which no CLI could be handed.
 */
export function validPromptText(value: unknown, field = 'text'): string {
  if (typeof value !== 'string') throw invalid(field, `${field} must be a string`);
  if (value.trim().length === 0) throw invalid(field, `${field} must not be empty`);
  const length = characters(value);
  if (length > PROMPT_MAX_LENGTH) {
    throw invalid(
      field,
      `${field} must be at most ${PROMPT_MAX_LENGTH} characters (it has ${length})`,
    );
  }
  if (NUL_OR_SURROGATE.test(value)) {
    throw invalid(field, `${field} must be valid text without NUL characters`);
  }
  return value;
}

/** What a harness's CLI takes as `--model`: a name, an alias or provider/name. */
export const MODEL_NAME = new RegExp(`^[\\w.:/@-]{1,${MODEL_NAME_MAX_LENGTH}}$`);

/** A model as every harness is handed it; a session's, a prompt's and the settings' default. */
export function validModelName(value: unknown, field = 'model'): string {
  if (typeof value !== 'string' || !MODEL_NAME.test(value)) {
    throw invalid(
      field,
      `${field} must be a model name of letters, digits and . : / @ - _ (1–${MODEL_NAME_MAX_LENGTH}), such as sonnet or anthropic/claude-sonnet-4-5`,
    );
  }
  return value;
}

export function validHarness(value: unknown): HarnessName {
  return oneOf(value, 'harness', HARNESS_NAMES);
}

function str(value: unknown, field: string): string {
  if (typeof value !== 'string') throw invalid(field, `${field} must be a string`);
  return value;
}

/** A turn's cost in dollars: absent or null is unknown; else a finite amount from 0 to $1M. */
function costUsd(value: unknown, field: string): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1_000_000)
    throw invalid(field, `${field} must be a number of dollars from 0 to 1000000`);
  return value;
}

function tokens(value: unknown, field: string): number {
  return integer(value, field, 0, Number.MAX_SAFE_INTEGER);
}

/** What the harness said, kept within bounds: long text is cut, never refused. */
export function validOutput(value: unknown, index: number): HarnessOutput {
  const field = `outputs[${index}]`;
  if (!isPlainObject(value)) throw invalid(field, `${field} must be an object`);
  switch (value.type) {
    case 'message':
      return { type: 'message', text: cut(str(value.text, `${field}.text`), MESSAGE_MAX_LENGTH) };
    case 'tool_call': {
      const json = JSON.stringify(value.input ?? null);
      const input =
        json.length > TOOL_INPUT_MAX_JSON
          ? { truncated: `the input was ${json.length} characters of JSON; not kept` }
          : (value.input ?? null);
      return {
        type: 'tool_call',
        id: cut(str(value.id, `${field}.id`), 200),
        name: cut(str(value.name, `${field}.name`), 200),
        input,
      };
    }
    case 'tool_result':
      return {
        type: 'tool_result',
        id: cut(str(value.id, `${field}.id`), 200),
        output: cut(str(value.output, `${field}.output`), TOOL_OUTPUT_MAX),
        error: value.error === true,
      };
    case 'error':
      return { type: 'error', ...validErrorReport(value.code, value.message, `${field}.`) };
    case 'turn_finished': {
      const cost = costUsd(value.cost_usd, `${field}.cost_usd`);
      return {
        type: 'turn_finished',
        status: oneOf(value.status, `${field}.status`, TURN_STATUSES),
        input_tokens: tokens(value.input_tokens, `${field}.input_tokens`),
        output_tokens: tokens(value.output_tokens, `${field}.output_tokens`),
        usage: isPlainObject(value.usage) ? value.usage : null,
        context: validContext(value.context, `${field}.context`),
        ...(cost === null ? {} : { cost_usd: cost }),
      };
    }
    case 'harness_session':
      return { type: 'harness_session', id: cut(str(value.id, `${field}.id`), 200) };
    default:
      throw invalid(
        `${field}.type`,
        `${field}.type must be one of message, tool_call, tool_result, error, turn_finished, harness_session (got ${JSON.stringify(value.type)})`,
      );
  }
}

/** An error's code and message, cut, never refused unless not text; `prefix` names the fields. */
export function validErrorReport(code: unknown, message: unknown, prefix = '') {
  return {
    code: cut(str(code, `${prefix}code`), 100),
    message: cut(str(message, `${prefix}message`), 4_000),
  };
}

function validContext(value: unknown, field: string) {
  if (value === null || value === undefined) return null;
  if (!isPlainObject(value)) throw invalid(field, `${field} must be an object or null`);
  const windowTokens =
    value.windowTokens === null || value.windowTokens === undefined
      ? null
      : tokens(value.windowTokens, `${field}.windowTokens`);
  return { usedTokens: tokens(value.usedTokens, `${field}.usedTokens`), windowTokens };
}
