/**
 * The scripted harness's program (compiled to
 * dist/apps/box-agent/src/harness/scripted/scripted-agent.js): plays a script of messages and
 * MCP tool calls against the box's own MCP servers, with no model behind it. Reads one JSON
 * object { prompt, briefing, mcpServers } from stdin and writes HarnessOutput JSON lines to
 * stdout. It keeps no state between turns, so it reports no harness_session.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { HarnessOutput } from '@sessionboxer/domain';
import { z } from 'zod';
import type { McpServerSpec } from '../harness.port';
import { imageLine, workspaceMedia } from '../saved-image';
import { demoGreeting, demoSummary, expandEnv, issuesText, parsePrompt, type Step } from './script';

type Args = Record<string, unknown>;
type Block = { type?: unknown; text?: unknown; data?: unknown; mimeType?: unknown };

const inputSchema = z.object({
  prompt: z.string(),
  // A script has no model to brief; accepted so the input matches every harness's.
  briefing: z.string().nullable().default(null),
  mcpServers: z
    .record(
      z.object({
        command: z.string().min(1),
        args: z.array(z.string()).default([]),
        env: z.record(z.string()).default({}),
      }),
    )
    .default({}),
});

type ToolOutcome = { output: string; error: boolean };

// Each write resolves once handed to the OS, so what a killed run already said is not lost.
function write(outputs: HarnessOutput[]): Promise<void> {
  const text = outputs.map((o) => `${JSON.stringify(o)}\n`).join('');
  return new Promise((done, fail) => {
    process.stdout.write(text, (e) => (e ? fail(e) : done()));
  });
}

function finished(status: 'finished' | 'failed', costUsd?: number): HarnessOutput {
  return {
    type: 'turn_finished',
    status,
    input_tokens: 0,
    output_tokens: 0,
    usage: null,
    context: null,
    ...(costUsd === undefined ? {} : { cost_usd: costUsd }),
  };
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The MCP servers of .mcp.json, each started on its first call and closed at the end. */
class McpClients {
  private readonly connected = new Map<string, Promise<Client>>();
  private readonly transports: StdioClientTransport[] = [];

  constructor(private readonly servers: Record<string, McpServerSpec>) {}

  async call(server: string, tool: string, args: Record<string, unknown>): Promise<ToolOutcome> {
    const client = await this.client(server);
    const result = await client.callTool({ name: tool, arguments: args });
    const blocks = (Array.isArray(result.content) ? result.content : []) as Block[];
    // The agent runs in the workspace: its images are saved there, as the real CLIs' are.
    const media = workspaceMedia(process.cwd());
    const texts = blocks.flatMap((b) => {
      if (b.type === 'text' && typeof b.text === 'string') return [b.text];
      return b.type === 'image' ? [imageLine(media, b.mimeType, b.data)] : [];
    });
    return { output: texts.join('\n'), error: result.isError === true };
  }

  private client(server: string): Promise<Client> {
    let client = this.connected.get(server);
    if (client === undefined) {
      client = this.connect(server);
      this.connected.set(server, client);
    }
    return client;
  }

  private async connect(server: string): Promise<Client> {
    const spec = this.servers[server];
    if (spec === undefined) {
      const known = Object.keys(this.servers).join(', ') || 'none';
      throw new Error(`no MCP server "${server}" in .mcp.json (it lists: ${known})`);
    }
    const transport = new StdioClientTransport({
      command: spec.command,
      args: spec.args,
      env: { PATH: process.env.PATH ?? '', ...spec.env },
    });
    this.transports.push(transport);
    const client = new Client({ name: 'sessionboxer-scripted', version: '1' });
    await client.connect(transport);
    return client;
  }

  async closeAll(): Promise<void> {
    const clients = [...this.connected.values()];
    await Promise.allSettled(clients.map(async (c) => (await c).close()));
  }

  /** On SIGTERM there is no time for a polite close (the SDK waits up to 4 s per server). */
  kill(): void {
    for (const transport of this.transports) {
      try {
        if (transport.pid !== null) process.kill(transport.pid, 'SIGTERM');
      } catch {
        // It exited on its own meanwhile.
      }
    }
  }
}

class Player {
  /** The turn's cost so far, from its script's cost steps (undefined: it said none). */
  cost: number | undefined = undefined;

  private calls = 0;

  constructor(private readonly mcp: McpClients) {}

  /** Plays the steps in order; false when a step failed the turn. */
  async play(steps: Step[]): Promise<boolean> {
    for (const step of steps) {
      if (!(await this.step(step))) return false;
    }
    return true;
  }

  private async step(step: Step): Promise<boolean> {
    switch (step.kind) {
      case 'say':
        await write([{ type: 'message', text: step.text }]);
        return true;
      case 'call':
        await this.call(step.server, step.tool, expandEnv(step.args, process.env) as Args);
        return true;
      case 'sleep':
        await delay(step.seconds * 1000);
        return true;
      case 'echo_env':
        await write([{ type: 'message', text: process.env[step.name] ?? '' }]);
        return true;
      case 'fail':
        await write([
          {
            type: 'error',
            code: 'script_failed',
            message: expandEnv(step.message, process.env) as string,
          },
        ]);
        return false;
      case 'burst':
        await burst(step.count, step.rate);
        return true;
      case 'cost':
        this.cost = (this.cost ?? 0) + step.usd;
        return true;
      default:
        return step satisfies never;
    }
  }

  async call(server: string, tool: string, args: Record<string, unknown>): Promise<ToolOutcome> {
    const id = `toolu_scripted_${++this.calls}`;
    await write([{ type: 'tool_call', id, name: `mcp__${server}__${tool}`, input: args }]);
    const outcome = await this.mcp
      .call(server, tool, args)
      .catch((e: unknown): ToolOutcome => ({ output: messageOf(e), error: true }));
    await write([{ type: 'tool_result', id, ...outcome }]);
    return outcome;
  }

  async demo(prompt: string): Promise<void> {
    await write([{ type: 'message', text: demoGreeting(prompt) }]);
    const whoami = await this.call('sessionboxer', 'whoami', {});
    await write([{ type: 'message', text: demoSummary(whoami) }]);
  }
}

function now(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * `count` messages at `rate` per second, each stamped when made: a benchmark reads the lag from
 * emittedAt to the event's arrival. Timers cannot fire every 0.2 ms, so each wake-up sends every
 * message that has fallen due since the last.
 */
async function burst(count: number, rate: number): Promise<void> {
  const start = performance.now();
  let sent = 0;
  while (sent < count) {
    const due = Math.min(count, Math.floor(((performance.now() - start) * rate) / 1000) + 1);
    const batch: HarnessOutput[] = [];
    for (; sent < due; sent++) {
      batch.push({ type: 'message', text: JSON.stringify({ burst: sent, emittedAt: now() }) });
    }
    await write(batch);
    const next = start + (sent * 1000) / rate;
    if (sent < count) await delay(Math.max(0, next - performance.now()));
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function readInput(): Promise<z.infer<typeof inputSchema> | string> {
  let json: unknown;
  try {
    json = JSON.parse(await readStdin());
  } catch (e) {
    return `stdin is not one JSON object: ${messageOf(e)}`;
  }
  const parsed = inputSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  return `stdin is not { prompt, briefing, mcpServers }: ${issuesText(parsed.error)}`;
}

async function failWith(code: string, message: string): Promise<number> {
  await write([{ type: 'error', code, message }, finished('failed')]);
  return 1;
}

/** Plays the turn and returns the exit code; outputs a turn_finished whatever happens. */
async function run(track: (mcp: McpClients) => void): Promise<number> {
  const input = await readInput();
  if (typeof input === 'string') return failWith('bad_input', input);
  const script = parsePrompt(input.prompt);
  if (script.kind === 'bad_script') return failWith('bad_script', script.message);
  const mcp = new McpClients(input.mcpServers);
  track(mcp);
  try {
    const player = new Player(mcp);
    if (script.kind === 'demo') await player.demo(input.prompt);
    else if (!(await player.play(script.steps))) {
      await write([finished('failed', player.cost)]);
      return 1;
    }
    await write([finished('finished', player.cost)]);
    return 0;
  } finally {
    await mcp.closeAll();
  }
}

function main(): void {
  let mcp: McpClients | null = null;
  process.once('SIGTERM', () => {
    mcp?.kill();
    process.exit(143);
  });
  // Whoever reads stdout has gone: nobody is left to tell.
  process.stdout.on('error', () => process.exit(1));
  run((clients) => (mcp = clients))
    .catch((e: unknown) => failWith('agent_failed', `the scripted agent failed: ${messageOf(e)}`))
    .then((code) => (process.exitCode = code))
    .catch(() => (process.exitCode = 1));
}

main();
