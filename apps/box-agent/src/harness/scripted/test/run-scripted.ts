import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { HarnessOutput } from '@sessionboxer/domain';
import type { McpServerSpec, TurnContext, TurnSpec } from '../../harness.port';
import { NO_MEDIA } from '../../saved-image';
import { scriptedHarness } from '../scripted';

export const REPO_ROOT = resolve(__dirname, '../../../../../..');

export interface RunResult {
  /** What the program's stdout carried, parsed line by line. */
  fromProgram: HarnessOutput[];
  /** What the parser's end() added once the process had exited. */
  fromEnd: HarnessOutput[];
  code: number | null;
  signal: string | null;
  stderr: string;
}

export interface ScriptedRun {
  child: ChildProcess;
  /** Resolves with the first output from the program that matches. */
  next(match: (o: HarnessOutput) => boolean): Promise<HarnessOutput>;
  done: Promise<RunResult>;
}

/** The sessionboxer stdio server from source, as .mcp.json would list the compiled one. */
export function sessionboxerServer(daemonUrl: string): McpServerSpec {
  return {
    command: process.execPath,
    args: [
      '-r',
      require.resolve('@swc-node/register'),
      join(REPO_ROOT, 'apps/box-agent/src/mcp/sessionboxer-server.ts'),
    ],
    env: { SESSIONBOXER_DAEMON_URL: daemonUrl, SWC_NODE_PROJECT: join(REPO_ROOT, 'tsconfig.json') },
  };
}

function turnOf(prompt: string, env: Record<string, string>): TurnSpec {
  return {
    turn: 1,
    harness: 'scripted',
    prompt,
    briefing: null,
    model: 'default',
    conversationId: 'conv-scripted-1',
    harnessSessionId: null,
    env,
  };
}

/**
 * Runs one turn the way the daemon does: the adapter's plan spawned as a child (argv, a clean
 * environment plus the plan's, the stdin written then closed) in a workspace that is not the
 * repo, its stdout fed line by line to the adapter's parser.
 */
export function startScripted(
  prompt: string,
  opts: {
    env?: Record<string, string>;
    mcpServers?: Record<string, McpServerSpec>;
    /** Instead of the plan's stdin: what a broken caller might send. */
    stdin?: string;
  } = {},
): ScriptedRun {
  const workspace = mkdtempSync(join(tmpdir(), 'scripted-ws-'));
  const ctx: TurnContext = {
    workspace,
    mcpConfigPath: join(workspace, '.mcp.json'),
    scratchDir: workspace,
    nodePath: process.execPath,
    mcpServers: opts.mcpServers ?? {},
  };
  const turn = turnOf(prompt, opts.env ?? {});
  const plan = scriptedHarness.plan(turn, ctx, scriptedHarness.executable(ctx));
  const parser = scriptedHarness.parser(turn, NO_MEDIA);
  const base = { PATH: process.env.PATH ?? '', HOME: workspace, LANG: 'C.UTF-8' };
  const child = spawn(plan.argv[0], plan.argv.slice(1), {
    cwd: workspace,
    env: { ...base, ...plan.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end(opts.stdin ?? plan.stdin ?? '');
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));

  const fromProgram: HarnessOutput[] = [];
  const waiters: { match: (o: HarnessOutput) => boolean; resolve: (o: HarnessOutput) => void }[] =
    [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    for (const output of parser.line(line)) {
      fromProgram.push(output);
      waiters.filter((w) => w.match(output)).forEach((w) => w.resolve(output));
    }
  });
  const next = (match: (o: HarnessOutput) => boolean) =>
    new Promise<HarnessOutput>((resolveNext) => {
      const seen = fromProgram.find(match);
      if (seen) resolveNext(seen);
      else waiters.push({ match, resolve: resolveNext });
    });
  const done = new Promise<RunResult>((resolveDone) => {
    child.on('close', (code, signal) => {
      rmSync(workspace, { recursive: true, force: true });
      const fromEnd = parser.end({ code, signal, stderr });
      resolveDone({ fromProgram, fromEnd, code, signal, stderr });
    });
  });
  return { child, next, done };
}

export function runScripted(
  prompt: string,
  opts: Parameters<typeof startScripted>[1] = {},
): Promise<RunResult> {
  return startScripted(prompt, opts).done;
}
