import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { HarnessName } from '@sessionboxer/domain';
import type { AgentOutputFrame, TurnStartPush } from '@sessionboxer/mcp-adapters/bridge/protocol';
import { errorMessage, type Log } from '../log';
import { findExecutable } from '../terminals/find-executable';
import type { HarnessAdapter, McpServerSpec, TurnContext, TurnSpec } from './harness.port';
import { runHarnessProcess, writePlanFiles, type HarnessProcess } from './harness-process';
import { failedTurn, OutputStream } from './outputs';
import { workspaceMedia } from './saved-image';

export interface TurnRunnerOptions {
  workspace: string;
  nodePath: string;
  adapters: Readonly<Record<HarnessName, HarnessAdapter>>;
  /** Sends a frame to the control plane now, or once reconnected, in order. */
  deliver(event: 'agent.output', frame: AgentOutputFrame): void;
  log: Log;
  /** The environment every harness starts from (credentials come on top, per turn). */
  baseEnv?: Record<string, string>;
  /** Folder of the agent CLIs the project ships (/opt/sessionboxer/node_modules/.bin). */
  agentBin?: string;
  /**
   * Resolves once the .mcp.json writes asked for so far are done: a registry pushed just before
   * the turn started is then in the file the turn reads.
   */
  mcpJsonWritten?: () => Promise<void>;
}

interface Run {
  turn: number;
  output: OutputStream;
  process: HarnessProcess | null;
  interrupted: boolean;
}

/**
 * Runs the agent's turns in the box, one harness process per turn, and streams what each
 * reports to the control plane as it happens. A turn.start resent after a reconnect joins the
 * run already going; what cannot start (no CLI, no credential) ends the turn with an error
 * event, never a hung turn.
 */
export class TurnRunner {
  private readonly runs = new Map<string, Run>();
  private readonly baseEnv: Record<string, string>;

  constructor(private readonly options: TurnRunnerOptions) {
    this.baseEnv = options.baseEnv ?? defaultBaseEnv(options.workspace, options.agentBin);
  }

  start(push: TurnStartPush): void {
    const current = this.runs.get(push.conversationId);
    if (current?.turn === push.turn) return;
    // A newer turn means the control plane has ended the old one already.
    if (current) this.stopRun(current);
    const output = new OutputStream({ conversationId: push.conversationId, turn: push.turn }, (f) =>
      this.options.deliver('agent.output', f),
    );
    const run: Run = { turn: push.turn, output, process: null, interrupted: false };
    this.runs.set(push.conversationId, run);
    void this.execute(push, run)
      .catch((e: unknown) => output.emit(failedTurn('agent_failed', errorMessage(e))))
      .finally(() => {
        output.flush();
        if (this.runs.get(push.conversationId) === run) this.runs.delete(push.conversationId);
      });
  }

  interrupt(conversationId: string, turn: number): void {
    const run = this.runs.get(conversationId);
    if (run?.turn === turn) this.stopRun(run);
  }

  /** The turns whose harness runs now (told to the control plane in the hello). */
  running(): { conversationId: string; turn: number }[] {
    return [...this.runs].map(([conversationId, r]) => ({ conversationId, turn: r.turn }));
  }

  stopAll(): void {
    for (const run of this.runs.values()) this.stopRun(run);
  }

  private stopRun(run: Run): void {
    run.interrupted = true;
    run.output.close();
    run.process?.stop();
  }

  private async execute(push: TurnStartPush, run: Run): Promise<void> {
    const adapter = this.options.adapters[push.harness];
    const turn: TurnSpec = { ...push };
    const missing = missingCredential(adapter, turn);
    if (missing) return run.output.emit(failedTurn('credentials_missing', missing));
    const scratchDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-turn-'));
    try {
      const ctx = await this.context(scratchDir);
      const wanted = adapter.executable(ctx);
      const found = findExecutable(wanted, ctx.workspace, this.baseEnv.PATH);
      if (found === null) {
        const message = `${adapter.name} cannot run: ${wanted} is not installed in this box (looked on PATH ${this.baseEnv.PATH})`;
        return run.output.emit(failedTurn('agent_unavailable', message));
      }
      const plan = adapter.plan(turn, ctx, found);
      await writePlanFiles(plan, scratchDir);
      if (run.interrupted) return;
      const env = { ...this.baseEnv, ...plan.env };
      run.process = runHarnessProcess(
        plan,
        { cwd: ctx.workspace, env },
        adapter.parser(turn, workspaceMedia(ctx.workspace)),
        (outputs) => run.output.emit(outputs),
        (bug) => this.options.log.error(`${adapter.name} parser: ${bug}`),
      );
      await run.process.done;
    } finally {
      await fs.rm(scratchDir, { recursive: true, force: true });
    }
  }

  private async context(scratchDir: string): Promise<TurnContext> {
    const { workspace, nodePath } = this.options;
    const mcpConfigPath = path.join(workspace, '.mcp.json');
    await this.options.mcpJsonWritten?.();
    return {
      workspace,
      nodePath,
      mcpConfigPath,
      scratchDir,
      mcpServers: await readMcpServers(mcpConfigPath),
    };
  }
}

function missingCredential(adapter: HarnessAdapter, turn: TurnSpec): string | null {
  const names = adapter.credentialEnv(turn);
  if (names.length === 0 || names.some((n) => (turn.env[n] ?? '') !== '')) return null;
  return `${adapter.name} needs a credential and none is set: set one of ${names.join(', ')} under credentials in Sessionboxer's settings`;
}

async function readMcpServers(file: string): Promise<Record<string, McpServerSpec>> {
  try {
    const parsed = JSON.parse(await fs.readFile(file, 'utf8')) as { mcpServers?: unknown };
    const servers = (parsed.mcpServers ?? {}) as Record<string, Partial<McpServerSpec>>;
    const entries = Object.entries(servers).filter(([, s]) => typeof s?.command === 'string');
    return Object.fromEntries(
      entries.map(([name, s]) => [
        name,
        { command: s.command as string, args: s.args ?? [], env: s.env ?? {} },
      ]),
    );
  } catch {
    return {};
  }
}

/** What a harness sees of the daemon's environment: enough to run, none of the daemon's own. */
function defaultBaseEnv(workspace: string, agentBin?: string): Record<string, string> {
  const keep = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TMPDIR', 'DISPLAY', 'USER', 'SHELL', 'TZ'];
  const env: Record<string, string> = { TERM: 'dumb', HOME: workspace, LANG: 'C.UTF-8' };
  for (const key of keep) {
    const value = process.env[key];
    if (value !== undefined && value !== '') env[key] = value;
  }
  env.PATH ??= '/usr/local/bin:/usr/bin:/bin';
  // Last, so a CLI the workspace installs itself comes first.
  if (agentBin) env.PATH = `${env.PATH}:${agentBin}`;
  return env;
}
