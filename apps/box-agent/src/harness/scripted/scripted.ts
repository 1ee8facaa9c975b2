import { join, resolve } from 'node:path';
import { failedTurn } from '../outputs';
import type { HarnessOutput, HarnessOutputType } from '@sessionboxer/domain';
import type {
  HarnessAdapter,
  LaunchPlan,
  StreamParser,
  TurnContext,
  TurnSpec,
} from '../harness.port';

const OUTPUT_TYPES: ReadonlySet<string> = new Set<HarnessOutputType>([
  'message',
  'tool_call',
  'tool_result',
  'error',
  'turn_finished',
  'harness_session',
]);

const STDERR_LINES = 5;

/**
 * The agent program's argv after node. Compiled, it is the .js beside this file; from source
 * (under jest) it is the .ts run through @swc-node/register, resolved here rather than from the
 * child's cwd (the workspace, which has no node_modules of ours).
 */
function agentArgs(): string[] {
  if (!__filename.endsWith('.ts')) return [join(__dirname, 'scripted-agent.js')];
  return ['-r', require.resolve('@swc-node/register'), join(__dirname, 'scripted-agent.ts')];
}

/** From source, swc-node reads the repo's tsconfig (path aliases) instead of one in the cwd. */
function agentEnv(): Record<string, string> {
  if (!__filename.endsWith('.ts')) return {};
  return { SWC_NODE_PROJECT: resolve(__dirname, '../../../../../tsconfig.json') };
}

function asOutput(text: string): HarnessOutput | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const type = (value as { type?: unknown }).type;
  // The program is ours: its lines are trusted for shape once their type is one we know.
  return typeof type === 'string' && OUTPUT_TYPES.has(type) ? (value as HarnessOutput) : null;
}

function exitText(exit: { code: number | null; signal: string | null }): string {
  return exit.signal !== null ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
}

function lastLines(text: string): string {
  return text.trimEnd().split('\n').slice(-STDERR_LINES).join('\n');
}

function scriptedParser(): StreamParser {
  let finished = false;
  return {
    line(text) {
      const output = asOutput(text);
      if (output === null || finished) return [];
      if (output.type === 'turn_finished') finished = true;
      return [output];
    },
    end(exit) {
      if (finished) return [];
      const stderr = lastLines(exit.stderr);
      const message = `the scripted agent ${exitText(exit)} before finishing its turn${
        stderr ? `:\n${stderr}` : ''
      }`;
      return failedTurn('agent_failed', message);
    },
  };
}

/**
 * The scripted harness: plays a script from the prompt (or the demo) against the box's MCP
 * servers with no model behind it, for tests and demos where no provider is configured. It runs
 * on the daemon's own node and needs no credential.
 */
export const scriptedHarness: HarnessAdapter = {
  name: 'scripted',
  credentialEnv: () => [],
  executable: (ctx: TurnContext) => ctx.nodePath,
  plan(turn: TurnSpec, ctx: TurnContext, executablePath: string): LaunchPlan {
    const input = { prompt: turn.prompt, briefing: turn.briefing, mcpServers: ctx.mcpServers };
    return {
      argv: [executablePath, ...agentArgs()],
      // The turn's env may hold credentials: echo_env shows whether they are masked downstream.
      env: { ...turn.env, ...agentEnv() },
      stdin: JSON.stringify(input),
    };
  },
  parser: () => scriptedParser(),
};
