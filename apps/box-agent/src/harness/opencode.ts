/*
 * OpenCode, run headless for one turn. What this relies on, and where it is documented:
 *
 * - `opencode run [message..]` with `--format json` (raw JSON events), `--model
 *   provider/model` and `--session <id>` to continue a session (opencode.ai/docs/cli;
 *   anomalyco/opencode packages/opencode/src/cli/cmd/run.ts). `--continue` is not used: it
 *   takes the project's latest session, which may be another conversation's.
 * - The prompt goes on stdin: run.ts reads stdin when it is not a TTY and adds it to the
 *   message (`if (!process.stdin.isTTY) message += "\n" + await Bun.stdin.text()`, and
 *   `resolveRunInput` in later versions), so a prompt of any length fits, unlike an argv item
 *   (131,072 bytes on Linux).
 * - Events, one JSON object a line, each {type, timestamp, sessionID, …} (run.ts, part types
 *   in src/session/message-v2.ts): `step_start`; `text` {part {text, time}}, once a text part
 *   is complete; `tool_use` {part {callID, tool, state {status completed | error, input,
 *   output | error, attachments? (file parts {mime, url, filename?}, an MCP image's url a
 *   `data:image/png;base64,…` one)}}}, once a call has finished; `step_finish` {part {reason
 *   ('tool-calls' while the turn goes on, 'stop', …), cost, tokens {input, output,
 *   reasoning, cache {read, write}}}}; `error` {error {name ProviderAuthError | APIError |
 *   UnknownError | …, data {message, statusCode?}}}; recent versions end with `done`
 *   {reason 'idle'}. The stream names no context window and no usage windows.
 * - tokens.input leaves cache tokens out and reasoning is counted apart from output
 *   (src/session getUsage), so each is added back here. MCP tools are named
 *   `<server>_<tool>` (src/mcp/index.ts).
 * - OPENCODE_CONFIG names an extra config file (docs/cli, environment variables); `mcp`
 *   servers of type local take {command: [...], environment, enabled} (docs/mcp-servers);
 *   `permission: "allow"` runs every tool without asking (docs/permissions), which matters
 *   because `run` rejects whatever would ask.
 * - `provider.<id>.options.baseURL` points a provider elsewhere (docs/providers): the box
 *   edge's relays, from the ANTHROPIC_BASE_URL / OPENAI_BASE_URL the control plane hands in
 *   (the keys it hands in are placeholders the relays replace). The Anthropic SDK's base URL
 *   ends in /v1. OpenCode's openai provider speaks the Responses API (`POST /v1/responses`),
 *   not chat completions. XDG_* put its data (sessions, which --session reads) and cache
 *   in the workspace, so later turns and forks find them.
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

const CLI = 'OpenCode';

function textOutputs(part: Json | null): HarnessOutput[] {
  const said = text(part?.text);
  if (said === null || said.trim() === '' || part?.synthetic === true) return [];
  return [{ type: 'message', text: said }];
}

/** A data URL's type and base64 payload (`data:image/png;base64,…`), else null. */
function dataUrl(url: string | null): { mime: string; base64: string } | null {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url ?? '');
  return match === null ? null : { mime: match[1], base64: match[2] };
}

/** An attachment (a FilePart): an image saved by `media` and named by its line, else "[file]". */
function attachmentLine(value: unknown, media: MediaSink): string {
  const part = obj(value);
  const mime = text(part?.mime) ?? '';
  if (!mime.startsWith('image/')) return '[file]';
  const data = dataUrl(text(part?.url));
  return data === null ? '[image]' : imageLine(media, data.mime, data.base64);
}

/** A finished call's output, with its attachments after the text, one line each. */
function toolText(state: Json, media: MediaSink): string {
  const attachments = list(state.attachments).map((value) => attachmentLine(value, media));
  return [text(state.output) ?? '', ...attachments].filter((s) => s !== '').join('\n');
}

function toolOutputs(part: Json | null, media: MediaSink): HarnessOutput[] {
  const id = text(part?.callID);
  const name = text(part?.tool);
  const state = obj(part?.state);
  if (id === null || name === null || state === null) return [];
  const call: HarnessOutput = { type: 'tool_call', id, name, input: state.input ?? null };
  if (state.status === 'completed') {
    return [call, { type: 'tool_result', id, output: toolText(state, media), error: false }];
  }
  if (state.status === 'error') {
    return [call, { type: 'tool_result', id, output: text(state.error) ?? '', error: true }];
  }
  return [];
}

function errorCode(name: string | null, status: number, message: string): HarnessErrorCode {
  if (name === 'ProviderAuthError' || status === 401 || status === 403) {
    return 'credentials_invalid';
  }
  if (status === 429 || status === 529) return 'rate_limited';
  return codeOf(message);
}

function errorOutput(event: Json): HarnessOutput {
  const error = obj(event.error);
  const name = text(error?.name);
  const data = obj(error?.data);
  const message = text(data?.message) ?? name ?? `${CLI} reported an error without a message`;
  return { type: 'error', code: errorCode(name, count(data?.statusCode), message), message };
}

class OpenCodeStream implements StreamParser {
  private readonly session = new SessionNote();
  private done = false;
  private errors = 0;
  private input = 0;
  private output = 0;
  private lastTokens: Json | null = null;
  /** The turn's cost so far: the sum of its steps' (undefined while none said). */
  private cost: number | undefined = undefined;
  private lastReason: string | null = null;

  constructor(private readonly media: MediaSink) {}

  line(raw: string): HarnessOutput[] {
    const event = jsonLine(raw);
    if (event === null || this.done) return [];
    const outputs = this.session.take(event.sessionID);
    const part = obj(event.part);
    if (event.type === 'text') outputs.push(...textOutputs(part));
    if (event.type === 'tool_use') outputs.push(...toolOutputs(part, this.media));
    if (event.type === 'step_finish') this.onStep(part);
    if (event.type === 'error') {
      this.errors += 1;
      outputs.push(errorOutput(event));
    }
    if (event.type === 'done') {
      this.done = true;
      outputs.push(turnFinished(this.errors > 0 ? 'failed' : 'finished', this.totals()));
    }
    return outputs;
  }

  /**
   * Versions without `done` end the stream with the last step: the turn finished if the CLI
   * exited 0 after a step that did not ask for more tool calls, and failed if it reported an
   * error (already emitted). Anything else is a crash.
   */
  end(exit: Exit): HarnessOutput[] {
    if (this.done) return [];
    this.done = true;
    if (this.errors > 0) return [turnFinished('failed', this.totals())];
    const lastStepEnded = this.lastReason !== null && this.lastReason !== 'tool-calls';
    if (exit.code === 0 && lastStepEnded) return [turnFinished('finished', this.totals())];
    return crashOutputs(CLI, exit, { ...this.totals(), input: 0, output: 0 });
  }

  private onStep(part: Json | null): void {
    const tokens = obj(part?.tokens);
    this.lastReason = text(part?.reason) ?? this.lastReason;
    const cost = dollars(part?.cost);
    if (cost !== undefined) this.cost = (this.cost ?? 0) + cost;
    if (tokens === null) return;
    this.input += stepInput(tokens);
    this.output += count(tokens.output) + count(tokens.reasoning);
    this.lastTokens = tokens;
  }

  private totals(): TurnTotals {
    const last = this.lastTokens;
    const context: ContextUse | null =
      last === null
        ? null
        : { usedTokens: stepInput(last) + count(last.output), windowTokens: null };
    return { input: this.input, output: this.output, usage: null, context, costUsd: this.cost };
  }
}

function stepInput(tokens: Json): number {
  const cache = obj(tokens.cache);
  return count(tokens.input) + count(cache?.read) + count(cache?.write);
}

/** Each provider the control plane gave a base URL for (its relay), as OpenCode's option. */
function providers(env: Record<string, string>): Json {
  const anthropic = env.ANTHROPIC_BASE_URL;
  const openai = env.OPENAI_BASE_URL;
  return {
    ...(anthropic ? { anthropic: { options: { baseURL: `${anthropic}/v1` } } } : {}),
    ...(openai ? { openai: { options: { baseURL: openai } } } : {}),
  };
}

/** The config file the turn runs with: the box's MCP servers, every tool allowed. */
function openCodeConfig(turn: TurnSpec, ctx: TurnContext): Json {
  const mcp = Object.fromEntries(
    Object.entries(ctx.mcpServers).map(([name, server]) => [
      name,
      {
        type: 'local',
        command: [server.command, ...server.args],
        environment: server.env,
        enabled: true,
      },
    ]),
  );
  const provider = providers(turn.env);
  return {
    $schema: 'https://opencode.ai/config.json',
    mcp,
    permission: 'allow',
    ...(Object.keys(provider).length > 0 ? { provider } : {}),
  };
}

function xdgDirs(root: string): Record<string, string> {
  return {
    XDG_DATA_HOME: path.join(root, 'data'),
    XDG_CONFIG_HOME: path.join(root, 'config'),
    XDG_CACHE_HOME: path.join(root, 'cache'),
    XDG_STATE_HOME: path.join(root, 'state'),
  };
}

/** OpenCode (`opencode run`), the prompt on stdin, the box's MCP servers in a generated config. */
export const openCodeHarness: HarnessAdapter = {
  name: 'opencode',
  // Models under opencode/ need none of these; the port's list is static (see the report).
  // OpenCode's own opencode/… models need no key of the user's.
  credentialEnv: (turn) =>
    turn.model.startsWith('opencode/')
      ? []
      : ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'OPENROUTER_API_KEY'],
  executable: () => 'opencode',
  plan(turn: TurnSpec, ctx: TurnContext, executablePath: string): LaunchPlan {
    const configPath = path.join(ctx.scratchDir, 'opencode.json');
    return {
      argv: [
        executablePath,
        'run',
        '--format',
        'json',
        ...(turn.model === 'default' ? [] : ['--model', turn.model]),
        ...(turn.harnessSessionId === null ? [] : ['--session', turn.harnessSessionId]),
      ],
      env: {
        ...turn.env,
        OPENCODE_CONFIG: configPath,
        OPENCODE_DISABLE_AUTOUPDATE: '1',
        ...xdgDirs(path.join(ctx.workspace, '.sessionboxer', 'opencode')),
      },
      stdin: promptWithBriefing(turn),
      files: { [configPath]: `${JSON.stringify(openCodeConfig(turn, ctx), null, 2)}\n` },
    };
  },
  parser: (_turn, media) => new OpenCodeStream(media),
};
