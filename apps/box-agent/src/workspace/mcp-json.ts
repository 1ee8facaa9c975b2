import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { BOX_PATHS, type McpRegistryPush } from '@sessionboxer/mcp-adapters/bridge/protocol';
import type { Log } from '../log';
import { prettyJson, writeFileAtomic } from './safe-write';

export interface McpJsonInput {
  nodePath: string;
  commandRoot: string;
  daemonUrl: string;
  /** The box's X display, which the desktop server drives. */
  display?: string;
  /** The rest of the desktop server's settings (SESSIONBOXER_SCREEN, _MOUSE_GLIDE…). */
  desktopEnv?: Record<string, string>;
  /** The user guide the sessionboxer server's `docs` tool reads, when not the box default. */
  guidePath?: string;
}

interface McpServerEntry {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** The servers Sessionboxer owns in `.mcp.json`, in the format Claude Code reads. */
export function sessionboxerMcpServers(input: McpJsonInput): Record<string, McpServerEntry> {
  const env = { SESSIONBOXER_DAEMON_URL: input.daemonUrl };
  return {
    desktop: {
      command: input.nodePath,
      args: [path.join(input.commandRoot, 'desktop-server.js')],
      env: {
        ...env,
        ...input.desktopEnv,
        ...(input.display ? { DISPLAY: input.display } : {}),
      },
    },
    sessionboxer: {
      command: input.nodePath,
      args: [path.join(input.commandRoot, 'sessionboxer-server.js')],
      env: input.guidePath ? { ...env, SESSIONBOXER_GUIDE_PATH: input.guidePath } : env,
    },
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

type RegistryServer = McpRegistryPush['servers'][number];

/**
 * The Global settings' MCP registry as .mcp.json entries: a server the box runs itself from its
 * command; one of Sessionboxer's outside servers (`relay`) as the daemon's relay process, whose
 * messages go over the box's channel (the control plane knows the session from the socket).
 */
export function registryMcpServers(
  servers: readonly RegistryServer[],
  input: McpJsonInput,
): Record<string, McpServerEntry> {
  const env = { SESSIONBOXER_DAEMON_URL: input.daemonUrl };
  return Object.fromEntries(
    servers.map((s) => [
      s.name,
      'relay' in s
        ? {
            command: input.nodePath,
            args: [path.join(input.commandRoot, 'relay-server.js'), s.relay],
            env,
          }
        : { command: s.command[0], args: s.command.slice(1), env: s.env },
    ]),
  );
}

/**
 * Our servers over whatever the file held: servers someone else added to the workspace's
 * .mcp.json survive a daemon restart; an unreadable file is replaced. `dropped` are the names
 * the registry gave before and gives no more.
 */
export function mergeMcpJson(
  existing: unknown,
  ours: Record<string, McpServerEntry>,
  dropped: readonly string[] = [],
): unknown {
  const base = isObject(existing) ? existing : {};
  const servers = isObject(base.mcpServers) ? { ...base.mcpServers } : {};
  for (const name of dropped) delete servers[name];
  return { ...base, mcpServers: { ...servers, ...ours } };
}

const MCP_JSON = path.relative(BOX_PATHS.workspace, BOX_PATHS.mcpJson);
/** The names the registry last put into .mcp.json, so a new daemon can take them out again. */
const REGISTRY_NAMES = '.sessionboxer/mcp-registry.json';

async function readJson(workspace: string, rel: string): Promise<unknown> {
  try {
    const real = path.join(await fs.realpath(workspace), rel);
    if ((await fs.lstat(real)).isFile()) return JSON.parse(await fs.readFile(real, 'utf8'));
  } catch {
    // missing or not JSON: written fresh
  }
  return undefined;
}

/**
 * The workspace's .mcp.json as the daemon keeps it: the two built-in servers, written once the
 * daemon listens, and the registry's, written again whenever the control plane pushes it (the
 * harness reads the file at each turn, so a change applies from the next one). Writes run one
 * after another.
 */
export class McpJsonFile {
  private input: McpJsonInput | null = null;
  private registry: readonly RegistryServer[] = [];
  private writing: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly workspace: string,
    private readonly log: Log,
  ) {}

  /** The built-in servers' settings; before this, a pushed registry waits. */
  write(input: McpJsonInput): Promise<void> {
    this.input = input;
    return this.queue();
  }

  setRegistry(servers: readonly RegistryServer[]): Promise<void> {
    this.registry = servers;
    return this.queue();
  }

  /** Resolves once every write asked for so far is done (or failed, which is logged). */
  settled(): Promise<void> {
    return this.writing.then(() => undefined);
  }

  private queue(): Promise<void> {
    const next = this.writing.then(() => this.writeNow());
    this.writing = next.catch((e: unknown) =>
      this.log.error(`could not write .mcp.json: ${e instanceof Error ? e.message : String(e)}`),
    );
    return next;
  }

  private async writeNow(): Promise<void> {
    const input = this.input;
    if (input === null) return;
    const given = registryMcpServers(this.registry, input);
    const before = await readJson(this.workspace, REGISTRY_NAMES);
    const names = Array.isArray(before) ? before.filter((n) => typeof n === 'string') : [];
    const dropped = names.filter((n) => !(n in given));
    // The built-in two win over a registry entry of the same name (the settings refuse one).
    const ours = { ...given, ...sessionboxerMcpServers(input) };
    const existing = await readJson(this.workspace, MCP_JSON);
    await writeFileAtomic(
      this.workspace,
      MCP_JSON,
      prettyJson(mergeMcpJson(existing, ours, dropped)),
    );
    // Kept only while the registry gives something: an empty one leaves no file behind.
    const now = Object.keys(given);
    if (now.length > 0) await writeFileAtomic(this.workspace, REGISTRY_NAMES, prettyJson(now));
    else if (names.length > 0)
      await fs.rm(path.join(this.workspace, REGISTRY_NAMES), { force: true });
  }
}
