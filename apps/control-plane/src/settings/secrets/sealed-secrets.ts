import { randomBytes } from 'node:crypto';
import type { McpServerEntry, Settings, SettingsPatch } from '@sessionboxer/domain';

/**
 * Settings' secrets (the GitHub token and webhook secret, every MCP server's env value) never
 * enter the event log: before a change is recorded each value goes to the secret store and
 * the event holds a reference, `sealed:<id>`, fresh for every value set (so setting the same
 * token again is still recorded, without it). Reading settings opens the references again.
 */
const PREFIX = 'sealed:';

export interface SecretStore {
  get(id: string): string | null;
  set(id: string, value: string): void;
  /** Keeps only these ids (the ones the latest settings refer to). */
  retain(ids: ReadonlySet<string>): void;
}

export const isSealed = (value: unknown): value is string =>
  typeof value === 'string' && value.startsWith(PREFIX);

function seal(value: string, store: SecretStore): string {
  if (isSealed(value)) return value;
  const id = randomBytes(12).toString('hex');
  store.set(id, value);
  return `${PREFIX}${id}`;
}

function open(value: string, store: SecretStore): string | null {
  return isSealed(value) ? store.get(value.slice(PREFIX.length)) : value;
}

/** An env as given (a value null is PutMcpServer's "keep"), its values sealed. */
function sealEnv(env: unknown, store: SecretStore): unknown {
  if (typeof env !== 'object' || env === null || Array.isArray(env)) return env;
  return Object.fromEntries(
    Object.entries(env).map(([k, v]) => [k, typeof v === 'string' ? seal(v, store) : v]),
  );
}

/** A registry entry as given, its env's values sealed. */
export function sealEntry(entry: unknown, store: SecretStore): unknown {
  if (typeof entry !== 'object' || entry === null || !('env' in entry)) return entry;
  return { ...entry, env: sealEnv(entry.env, store) };
}

/** A patch with every secret value it sets sealed; anything malformed is left to the decider. */
export function sealPatch<T>(patch: T, store: SecretStore): T {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const p = patch as Record<string, unknown>;
  const out: Record<string, unknown> = { ...p };
  const github = p.github;
  if (typeof github === 'object' && github !== null && !Array.isArray(github)) {
    const g = { ...(github as Record<string, unknown>) };
    for (const key of ['token', 'webhookSecret'])
      if (typeof g[key] === 'string') g[key] = seal(g[key], store);
    out.github = g;
  }
  if (Array.isArray(p.mcpRegistry)) out.mcpRegistry = p.mcpRegistry.map((e) => sealEntry(e, store));
  return out as T;
}

function openEntry(entry: McpServerEntry, store: SecretStore): McpServerEntry {
  if (!('env' in entry)) return entry;
  const env = Object.fromEntries(
    Object.entries(entry.env).map(([k, v]) => [k, open(v, store) ?? '']),
  );
  return { ...entry, env };
}

/** The settings with their references opened (a value no longer kept reads as none). */
export function openSettings(settings: Settings, store: SecretStore): Settings {
  const { github } = settings;
  return {
    ...settings,
    github: {
      ...github,
      token: github.token === null ? null : open(github.token, store),
      webhookSecret: github.webhookSecret === null ? null : open(github.webhookSecret, store),
    },
    mcpRegistry: settings.mcpRegistry.map((e) => openEntry(e, store)),
  };
}

/** The ids the settings refer to (what the store must keep). */
export function sealedIds(settings: Settings): Set<string> {
  const values = [
    settings.github.token,
    settings.github.webhookSecret,
    ...settings.mcpRegistry.flatMap((e) => ('env' in e ? Object.values(e.env) : [])),
  ];
  return new Set(values.filter(isSealed).map((v) => v.slice(PREFIX.length)));
}

/**
 * The patch that seals secrets recorded in the clear by earlier versions (null: none left).
 * Earlier events still hold those values: the log is append-only.
 */
export function unsealedPatch(settings: Settings, store: SecretStore): SettingsPatch | null {
  const { token, webhookSecret } = settings.github;
  const clear = (v: string | null) => v !== null && !isSealed(v);
  const envClear = settings.mcpRegistry.some(
    (e) => 'env' in e && Object.values(e.env).some((v) => !isSealed(v)),
  );
  if (!clear(token) && !clear(webhookSecret) && !envClear) return null;
  const patch: SettingsPatch = {
    github: { token, webhookSecret },
    mcpRegistry: settings.mcpRegistry,
  };
  return sealPatch(patch, store);
}
