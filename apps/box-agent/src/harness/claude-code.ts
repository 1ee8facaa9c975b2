/*
 * Claude Code, run headless for one turn. What this relies on, and where it is documented:
 *
 * - Flags (CLI reference, docs.anthropic.com/en/docs/claude-code/cli-reference): `-p` prints
 *   and exits, reading the prompt from stdin when none is given (`cat file | claude -p`);
 *   `--output-format stream-json`, which needs `--verbose`; `--mcp-config <file>` with
 *   `--strict-mcp-config` (those servers only; it would load .mcp.json by itself too); `--model`
 *   (an alias such as sonnet, or a full name); `--session-id <uuid>` names a new session;
 *   `--resume <id>` continues one; `--permission-mode bypassPermissions` asks for nothing
 *   (the box is the sandbox).
 * - The stream (Agent SDK message types, platform.claude.com/docs/en/agent-sdk/typescript):
 *   `system`/`init` {session_id, model, tools, mcp_servers}; `assistant` {message {model,
 *   content: text | tool_use {id, name, input} | thinking, usage}, parent_tool_use_id (set in
 *   a sub-agent's lines), error? ('authentication_failed' | 'rate_limit' | …)}; `user`
 *   {message.content: tool_result {tool_use_id, content: string or blocks (text {text},
 *   image {source {type base64, media_type, data}}: the Messages API's blocks), is_error}};
 *   `rate_limit_event` {rate_limit_info {status, resetsAt, rateLimitType: five_hour |
 *   seven_day | …, utilization?}}, the only line that reports usage windows, and only for
 *   subscription logins; `result` {subtype success | error_max_turns | error_during_execution
 *   | error_max_budget_usd, is_error, result, num_turns, errors?, usage {input_tokens,
 *   output_tokens, cache_creation_input_tokens, cache_read_input_tokens}, total_cost_usd,
 *   modelUsage {[model]: {contextWindow, …}}}. A failed API call (a bad key, an overload)
 *   still ends with subtype success and is_error true, its text in `result`, after a
 *   synthetic assistant message carrying `error`.
 * - Every line carries session_id. It is reported on every turn, since a resumed run may
 *   answer under a new id.
 * - As root, bypassPermissions is refused unless IS_SANDBOX=1 (anthropics/claude-code#3490).
 * - CLAUDE_CONFIG_DIR moves ~/.claude, the session files --resume reads included. It calls
 *   ANTHROPIC_BASE_URL (the edge's relay) and, with the two flags below, nothing else.
 */
import * as path from 'node:path';
import type { ContextUse, HarnessOutput } from '@sessionboxer/domain';
import {
  dollars,
  codeOf,
  count,
  crashOutputs,
  jsonLine,
  list,
  obj,
  SessionNote,
  text,
  turnFinished,
  type Exit,
  type HarnessErrorCode,
  type Json,
  type TurnTotals,
} from './cli-stream';
import {
  promptWithBriefing,
  type HarnessAdapter,
  type LaunchPlan,
  type StreamParser,
  type TurnContext,
  type TurnSpec,
} from './harness.port';
import { imageLine, type MediaSink } from './saved-image';

const CLI = 'Claude Code';

/** The assistant line's `error` field, when it names a cause the control plane tells apart. */
const ASSISTANT_ERRORS = new Map<string, HarnessErrorCode>([
  ['authentication_failed', 'credentials_invalid'],
  ['rate_limit', 'rate_limited'],
]);

/** Input as the domain counts it: fresh, cache-writing and cache-reading tokens alike. */
function inputTokens(usage: Json | null): number {
  return (
    count(usage?.input_tokens) +
    count(usage?.cache_creation_input_tokens) +
    count(usage?.cache_read_input_tokens)
  );
}

function assistantBlock(value: unknown): HarnessOutput[] {
  const block = obj(value);
  if (block?.type === 'text') {
    const said = text(block.text);
    return said !== null && said.trim() !== '' ? [{ type: 'message', text: said }] : [];
  }
  const id = text(block?.id);
  const name = text(block?.name);
  if (block?.type !== 'tool_use' || id === null || name === null) return [];
  return [{ type: 'tool_call', id, name, input: block.input ?? null }];
}

/**
 * A tool result's content as one text: text blocks joined, an image saved by `media` and
 * named by its line (`[image]` when it was not kept), other blocks named ("[document]").
 */
function toolOutput(content: unknown, media: MediaSink): string {
  if (typeof content === 'string') return content;
  return list(content)
    .map((value) => {
      const block = obj(value);
      if (block?.type === 'text') return text(block.text) ?? '';
      if (block?.type !== 'image') return `[${text(block?.type) ?? '?'}]`;
      const source = obj(block.source);
      return source?.type === 'base64'
        ? imageLine(media, source.media_type, source.data)
        : '[image]';
    })
    .join('\n');
}

function toolResult(value: unknown, media: MediaSink): HarnessOutput[] {
  const block = obj(value);
  const id = text(block?.tool_use_id);
  if (block?.type !== 'tool_result' || id === null) return [];
  const output = toolOutput(block.content, media);
  return [{ type: 'tool_result', id, output, error: block.is_error === true }];
}

/** The window of the model that answered, else the largest one reported. */
function contextWindow(modelUsage: Json | null, model: string | null): number | null {
  const ofModel = model === null ? 0 : count(obj(modelUsage?.[model])?.contextWindow);
  const largest = Math.max(
    0,
    ...Object.values(modelUsage ?? {}).map((m) => count(obj(m)?.contextWindow)),
  );
  const window = ofModel > 0 ? ofModel : largest;
  return window > 0 ? window : null;
}

/** The error a result line means, or null when the turn succeeded. */
function resultError(result: Json, assistantError: string | null): HarnessOutput | null {
  const subtype = text(result.subtype) ?? 'no subtype';
  if (subtype === 'success' && result.is_error !== true) return null;
  if (subtype === 'error_max_turns') {
    const turns = count(result.num_turns);
    const message = `${CLI} stopped after ${turns} turns: it reached its maximum number of turns`;
    return { type: 'error', code: 'max_turns', message };
  }
  const said = [result.result, ...list(result.errors)]
    .map(text)
    .filter((s): s is string => s !== null && s.trim() !== '')
    .join('\n');
  const message = said !== '' ? said : `${CLI} ended the turn with ${subtype}`;
  const code = ASSISTANT_ERRORS.get(assistantError ?? '') ?? codeOf(message);
  return { type: 'error', code, message };
}

class ClaudeCodeStream implements StreamParser {
  private readonly session = new SessionNote();
  private done = false;
  private model: string | null = null;
  private lastUsage: Json | null = null;
  private assistantError: string | null = null;
  private readonly windows: Json = {};

  constructor(private readonly media: MediaSink) {}

  line(raw: string): HarnessOutput[] {
    const event = jsonLine(raw);
    if (event === null || this.done) return [];
    const outputs = this.session.take(event.session_id);
    if (event.type === 'system' && event.subtype === 'init') this.model = text(event.model);
    if (event.type === 'assistant') outputs.push(...this.onAssistant(event));
    if (event.type === 'user') outputs.push(...this.onUser(event));
    if (event.type === 'rate_limit_event') this.onRateLimit(event);
    if (event.type === 'result') outputs.push(...this.onResult(event));
    return outputs;
  }

  end(exit: Exit): HarnessOutput[] {
    if (this.done) return [];
    this.done = true;
    return crashOutputs(CLI, exit, { input: 0, output: 0, ...this.known(null, null) });
  }

  /** A sub-agent's lines (parent_tool_use_id set) stay inside its Task call's result. */
  private onAssistant(event: Json): HarnessOutput[] {
    const message = obj(event.message);
    if (typeof event.parent_tool_use_id === 'string' || message === null) return [];
    if (typeof event.error === 'string') {
      // The CLI's own message about a failed call: the result line reports it as the error.
      this.assistantError = event.error;
      return [];
    }
    this.model = text(message.model) ?? this.model;
    this.lastUsage = obj(message.usage) ?? this.lastUsage;
    return list(message.content).flatMap(assistantBlock);
  }

  private onUser(event: Json): HarnessOutput[] {
    if (typeof event.parent_tool_use_id === 'string') return [];
    return list(obj(event.message)?.content).flatMap((block) => toolResult(block, this.media));
  }

  private onRateLimit(event: Json): void {
    const info = obj(event.rate_limit_info);
    if (info !== null) this.windows[text(info.rateLimitType) ?? 'unknown'] = info;
  }

  private onResult(result: Json): HarnessOutput[] {
    this.done = true;
    const usage = obj(result.usage);
    const totals: TurnTotals = {
      input: inputTokens(usage),
      output: count(usage?.output_tokens),
      ...this.known(obj(result.modelUsage), usage),
      costUsd: dollars(result.total_cost_usd),
    };
    const error = resultError(result, this.assistantError);
    return error === null
      ? [turnFinished('finished', totals)]
      : [error, turnFinished('failed', totals)];
  }

  /** Context from the last main-thread call (else the result's totals), and usage windows. */
  private known(
    modelUsage: Json | null,
    resultUsage: Json | null,
  ): Omit<TurnTotals, 'input' | 'output'> {
    const usage = this.lastUsage ?? resultUsage;
    const context: ContextUse | null =
      usage === null
        ? null
        : {
            usedTokens: inputTokens(usage) + count(usage.output_tokens),
            windowTokens: contextWindow(modelUsage, this.model),
          };
    return { context, usage: Object.keys(this.windows).length > 0 ? { ...this.windows } : null };
  }
}

/** Claude Code (`claude -p`), the prompt on stdin, its session kept in the workspace. */
export const claudeCodeHarness: HarnessAdapter = {
  name: 'claude-code',
  credentialEnv: () => ['ANTHROPIC_API_KEY', 'CLAUDE_CODE_OAUTH_TOKEN'],
  executable: () => 'claude',
  plan(turn: TurnSpec, ctx: TurnContext, executablePath: string): LaunchPlan {
    const session =
      turn.turn > 1 && turn.harnessSessionId !== null
        ? ['--resume', turn.harnessSessionId]
        : ['--session-id', turn.conversationId];
    return {
      argv: [
        executablePath,
        '-p',
        '--output-format',
        'stream-json',
        '--verbose',
        ...['--mcp-config', ctx.mcpConfigPath, '--strict-mcp-config'],
        '--permission-mode',
        'bypassPermissions',
        ...(turn.model === 'default' ? [] : ['--model', turn.model]),
        ...session,
      ],
      env: {
        ...turn.env,
        // In the workspace, so --resume finds the session on later turns and in forks.
        CLAUDE_CONFIG_DIR: path.join(ctx.workspace, '.sessionboxer', 'claude'),
        IS_SANDBOX: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
      },
      stdin: promptWithBriefing(turn),
    };
  },
  parser: (_turn, media) => new ClaudeCodeStream(media),
};
