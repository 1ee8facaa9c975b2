import * as fs from 'node:fs';
import * as path from 'node:path';
import type { HarnessName } from '@sessionboxer/domain';
import { BOX_EDGE } from '@sessionboxer/mcp-adapters';
// The harness adapters the box daemon runs turns with: how each CLI is started and read.
import { harnessAdapters } from '../../../box-agent/src/harness/harnesses';
import type {
  LaunchPlan,
  TurnContext,
  TurnSpec,
} from '../../../box-agent/src/harness/harness.port';
import { NO_MEDIA } from '../../../box-agent/src/harness/saved-image';
import { projectRoot } from '../boxes';

/** Where the project is seen from inside a sandbox's box (read-only). */
const IN_BOX_PROJECT = '/opt/sessionboxer';

/** Where a turn runs in a sandbox: its home, which is kept and forked. */
export const AGENT_HOME = '/root';

/** How one turn of a sandbox's agent is started inside its box. */
export interface SandboxLaunch {
  plan: LaunchPlan;
  /** Files to write in the box before the start (its scratch folder's). */
  files: Record<string, string>;
  env: Record<string, string>;
  parser: ReturnType<(typeof harnessAdapters)[HarnessName]['parser']>;
}

/**
 * The agent CLIs the project ships, on the host: Claude Code in node_modules/.bin, OpenCode in
 * its platform package. A path of the project maps to /opt/sessionboxer in an isolated box.
 */
export class SandboxHarness {
  private readonly root = projectRoot();

  constructor(private readonly isolated: boolean) {}

  /** The CLI's path inside the box, or null when the project does not ship it. */
  executable(harness: HarnessName): string | null {
    const rel =
      harness === 'claude-code'
        ? 'node_modules/.bin/claude'
        : harness === 'opencode'
          ? `node_modules/opencode-${process.platform}-${process.arch}/bin/opencode`
          : null;
    if (rel === null) return process.execPath;
    return fs.existsSync(path.join(this.root, rel)) ? this.inBox(path.join(this.root, rel)) : null;
  }

  /** The provider variables of a turn: the box's edge relays at the forwarder's port. */
  providerEnv(port: number): Record<string, string> {
    const base = `http://127.0.0.1:${port}`;
    return {
      ANTHROPIC_BASE_URL: base + BOX_EDGE.routes.anthropic,
      OPENAI_BASE_URL: `${base}${BOX_EDGE.routes.openai}/v1`,
    };
  }

  launch(turn: TurnSpec, executable: string): SandboxLaunch {
    const adapter = harnessAdapters[turn.harness];
    const scratchDir = `/tmp/sb-turn-${turn.conversationId}-${turn.turn}`;
    const ctx: TurnContext = {
      workspace: AGENT_HOME,
      mcpConfigPath: `${scratchDir}/mcp.json`,
      scratchDir,
      nodePath: process.execPath,
      mcpServers: {},
    };
    const raw = adapter.plan(turn, ctx, executable);
    const plan: LaunchPlan = { ...raw, argv: raw.argv.map((a) => this.inBox(a)) };
    const env = Object.fromEntries(
      Object.entries(raw.env).map(([k, v]) => [k, this.inBox(v)] as const),
    );
    const files = { [ctx.mcpConfigPath]: '{"mcpServers":{}}\n', ...(raw.files ?? {}) };
    return { plan, files, env, parser: adapter.parser(turn, NO_MEDIA) };
  }

  /** PATH inside the box, the shipped CLIs last (one the sandbox installs itself comes first). */
  path(): string {
    const bins = [
      'node_modules/.bin',
      `node_modules/opencode-${process.platform}-${process.arch}/bin`,
    ];
    return [
      '/usr/local/bin:/usr/bin:/bin',
      ...bins.map((b) => this.inBox(path.join(this.root, b))),
    ].join(':');
  }

  private inBox(value: string): string {
    if (!this.isolated || !value.startsWith(this.root + path.sep)) return value;
    return IN_BOX_PROJECT + value.slice(this.root.length);
  }
}
