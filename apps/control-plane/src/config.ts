import { isIP } from 'node:net';
import * as path from 'node:path';
import { auditKeyPath } from '@sessionboxer/event-store/chain';
import { boxLimitsConfig, type BoxLimitsConfig } from './box-limits-config';
import { operationsConfig, type OperationsConfig } from './operations-config';
import { terminalMcpConfig, type TerminalMcpConfig } from './terminal-mcp-config';

/** Everything the control plane reads from its environment, with the embedded defaults. */
export interface AppConfig {
  /** Address the HTTP server binds; loopback unless an operator opens it up. */
  host: string;
  port: number;
  /** Folder holding the embedded stores (events.sqlite, read-models.sqlite). */
  dataDir: string;
  /** SESSIONBOXER_PUSH_ALLOW_LOCAL_HTTP=on: push subscriptions may be http://127.0.0.1 (tests, dev). */
  pushAllowLocalHttp: boolean;
  /** When set, the event store is EventStoreDB at this connection string instead of SQLite. */
  eventStoreUrl: string | null;
  /** SESSIONBOXER_AUDIT_KEY: the ed25519 key signing chain checkpoints (default: beside dataDir). */
  auditKey: string;
  /** SESSIONBOXER_CHECKPOINT_EVERY: events between signed checkpoints (default 1,000). */
  checkpointEvery: number;
  /**
   * Where people reach this control plane; sessions' `url` fields start with it. Unless
   * SESSIONBOXER_PUBLIC_URL sets it, it is the address the server bound (see listen()).
   */
  publicUrl: string;
  /** Box isolation: bubblewrap when it works (auto), or forced. */
  boxIsolation: 'auto' | 'bubblewrap' | 'process';
  /** Start a box for every session (off only for tools and tests that want no processes). */
  boxes: boolean;
  /** SESSIONBOXER_SANDBOX_SCRIPTED=on: agent_prompt also takes harness scripted (no model). */
  sandboxScripted: boolean;
  /**
   * SESSIONBOXER_BOX_UID_BASE: the host uid (and gid) root in a box is, when the control plane
   * runs as root; box ids 0–65535 map onto it and the 65535 after it.
   */
  boxUidBase: number;
  /** REDIS_URL: the jobs (scheduled tasks, approval expiry) in Redis via BullMQ; null: in-process. */
  redisUrl: string | null;
  /** The local account's name (SESSIONBOXER_ADMIN_USER, default admin). */
  adminUser: string;
  /** SESSIONBOXER_ADMIN_PASSWORD: applied at each start that sets it; null keeps the stored one. */
  adminPassword: string | null;
  /**
   * SESSIONBOXER_TRUST_PROXY: Express's `trust proxy` (e.g. `loopback`, or a number of hops),
   * so sign-in throttling counts the client behind a reverse proxy, not the proxy; null: none.
   */
  trustProxy: string | number | null;
  /**
   * SESSIONBOXER_KOKORO_MODEL and SESSIONBOXER_KOKORO_VOICE, passed to every box as they are:
   * Kokoro's model folder in the image (a path the box sees) narrates recordings instead of
   * espeak-ng; the box checks it and says why when it cannot.
   */
  kokoro: { model: string | null; voice: string | null };
  /**
   * SESSIONBOXER_EGRESS_ALLOW_ADDRESSES (comma-separated IPs): addresses the egress proxy lets
   * boxes reach although they are loopback, private, … (a test's 127.0.0.2). The control
   * plane's own address and port stay refused whatever this says.
   */
  egressAllowAddresses: string[];
  /**
   * Where the provider relays forward the agents' model requests (SESSIONBOXER_ANTHROPIC_BASE_URL,
   * SESSIONBOXER_OPENAI_BASE_URL; defaults: the providers' own APIs). Tests point them at a double.
   */
  providers: { anthropic: string; openai: string };
  /** Log level and format, and who may read /metrics (operations-config.ts). */
  operations: OperationsConfig;
  /** The terminal MCP server's listener and notifications (terminal-mcp-config.ts). */
  terminalMcp: TerminalMcpConfig;
  /** Sandboxes' memory and disk scale, sessions' box limits (box-limits-config.ts). */
  boxLimits: BoxLimitsConfig;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const port = Number(env.SESSIONBOXER_PORT ?? '8080');
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(
      `SESSIONBOXER_PORT must be an integer from 0 to 65535, got ${JSON.stringify(env.SESSIONBOXER_PORT)}`,
    );
  }
  const dataDir = path.resolve(env.SESSIONBOXER_DATA_DIR ?? './data');
  const url = env.EVENTSTORE_URL?.trim();
  const isolation = env.SESSIONBOXER_BOX_ISOLATION ?? 'auto';
  if (isolation !== 'auto' && isolation !== 'bubblewrap' && isolation !== 'process') {
    throw new ConfigError(
      `SESSIONBOXER_BOX_ISOLATION must be auto, bubblewrap or process, got ${JSON.stringify(isolation)}`,
    );
  }
  const boxUidBase = Number(env.SESSIONBOXER_BOX_UID_BASE ?? '524288');
  if (!Number.isInteger(boxUidBase) || boxUidBase < 1 || boxUidBase > 2 ** 32 - 65538) {
    throw new ConfigError(
      `SESSIONBOXER_BOX_UID_BASE must be a uid above 0 with 65536 ids after it, got ${JSON.stringify(env.SESSIONBOXER_BOX_UID_BASE)}`,
    );
  }
  const checkpointEvery = Number(env.SESSIONBOXER_CHECKPOINT_EVERY ?? '1000');
  if (!Number.isSafeInteger(checkpointEvery) || checkpointEvery < 1) {
    throw new ConfigError(
      `SESSIONBOXER_CHECKPOINT_EVERY must be an integer ≥ 1, got ${JSON.stringify(env.SESSIONBOXER_CHECKPOINT_EVERY)}`,
    );
  }
  const host = env.SESSIONBOXER_HOST ?? '127.0.0.1';
  return {
    host,
    port,
    dataDir,
    pushAllowLocalHttp: env.SESSIONBOXER_PUSH_ALLOW_LOCAL_HTTP === 'on',
    eventStoreUrl: url ? url : null,
    auditKey: auditKeyPath(dataDir, env),
    checkpointEvery,
    publicUrl: (env.SESSIONBOXER_PUBLIC_URL ?? `http://${host}:${port}`).replace(/\/+$/, ''),
    boxIsolation: isolation,
    boxes: env.SESSIONBOXER_BOXES !== 'off',
    sandboxScripted: env.SESSIONBOXER_SANDBOX_SCRIPTED === 'on',
    boxUidBase,
    // Unset or empty keeps the jobs in this process (jobs.provider's rule).
    redisUrl: env.REDIS_URL?.trim() || null,
    adminUser: env.SESSIONBOXER_ADMIN_USER?.trim() || 'admin',
    adminPassword: env.SESSIONBOXER_ADMIN_PASSWORD || null,
    trustProxy: trustProxy(env.SESSIONBOXER_TRUST_PROXY),
    kokoro: {
      model: env.SESSIONBOXER_KOKORO_MODEL?.trim() || null,
      voice: env.SESSIONBOXER_KOKORO_VOICE?.trim() || null,
    },
    egressAllowAddresses: addressList(env, 'SESSIONBOXER_EGRESS_ALLOW_ADDRESSES'),
    providers: {
      anthropic: baseUrl(env, 'SESSIONBOXER_ANTHROPIC_BASE_URL', 'https://api.anthropic.com'),
      openai: baseUrl(env, 'SESSIONBOXER_OPENAI_BASE_URL', 'https://api.openai.com'),
    },
    operations: operations(env),
    terminalMcp: configPart(() => terminalMcpConfig(env)),
    boxLimits: configPart(() => boxLimitsConfig(env)),
  };
}

function operations(env: NodeJS.ProcessEnv): OperationsConfig {
  return configPart(() => operationsConfig(env));
}

function configPart<T>(read: () => T): T {
  try {
    return read();
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
}

/** An http(s) URL without a trailing slash, or the fallback when the variable is unset. */
function baseUrl(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    url = null;
  }
  if (url === null || !['http:', 'https:'].includes(url.protocol) || url.search || url.hash) {
    throw new ConfigError(
      `${name} must be an http(s) URL without query, got ${JSON.stringify(raw)}`,
    );
  }
  return raw.replace(/\/+$/, '');
}

/** The narration engine's variables a box's daemon gets (and hands on to its desktop server). */
export function boxTtsEnv(config: AppConfig): Record<string, string> {
  const { model, voice } = config.kokoro;
  return {
    ...(model ? { SESSIONBOXER_KOKORO_MODEL: model } : {}),
    ...(voice ? { SESSIONBOXER_KOKORO_VOICE: voice } : {}),
  };
}

function trustProxy(value: string | undefined): string | number | null {
  const v = value?.trim();
  if (!v) return null;
  return /^\d+$/.test(v) ? Number(v) : v;
}

function addressList(env: NodeJS.ProcessEnv, name: string): string[] {
  const items = (env[name] ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '');
  const bad = items.filter((a) => isIP(a) === 0);
  if (bad.length > 0) {
    throw new ConfigError(`${name} must list IP addresses, got ${JSON.stringify(bad[0])}`);
  }
  return items;
}
