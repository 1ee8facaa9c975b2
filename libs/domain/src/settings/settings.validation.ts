import {
  argv,
  bool,
  characters,
  CONTROL,
  integer,
  invalid,
  isPlainObject,
  object,
  oneOf,
  onlyKeys,
  text,
} from '../kernel/validation';
import { GLOBAL_CAP_MAX, SESSION_ENVIRONMENTS } from '../limits';
import { validModel, validProvider } from '../session/session.validation';
import {
  AGENT_TOOLS_POLICIES,
  defaultSettings,
  NARRATION_MODES,
  RELAYED_MCP_SERVERS,
  SESSION_CREATION_POLICIES,
  type McpServerEntry,
  type Settings,
} from './settings.state';
import {
  EMAIL_PATTERN as EMAIL,
  ENV_NAME_PATTERN as ENV_NAME,
  MCP_SERVER_NAME_PATTERN as MCP_NAME,
  POLL_SECONDS_MAX,
  POLL_SECONDS_MIN,
  RESERVED_MCP_NAMES,
} from '../limits';

const MCP_REGISTRY_MAX = 50;
const ENV_MAX = 100;
const ENV_VALUE_MAX = 10_000;
const SECRET_MAX = 1000;
export const DEBOUNCE_MS_MAX = 10_000;

export const SETTINGS_SECTIONS: readonly (keyof Settings)[] = [
  'defaults',
  'sessionboxer',
  'gitIdentity',
  'github',
  'mcpRegistry',
  'environments',
  'desktop',
  'autoQa',
  'notifications',
];

function section(value: unknown, field: string, keys: readonly string[]) {
  const o = object(value, field);
  onlyKeys(o, field, keys);
  for (const key of keys) {
    if (!(key in o)) throw invalid(`${field}.${key}`, `${field}.${key} is missing`);
  }
  return o;
}

function defaults(value: unknown): Settings['defaults'] {
  const o = section(value, 'defaults', ['provider', 'model', 'environment']);
  return {
    provider: validProvider(o.provider, 'defaults.provider'),
    model: validModel(o.model, 'defaults.model'),
    environment: oneOf(o.environment, 'defaults.environment', SESSION_ENVIRONMENTS),
  };
}

function policy(value: unknown): Settings['sessionboxer'] {
  const o = section(value, 'sessionboxer', ['agentTools', 'sessionCreation', 'globalCap']);
  return {
    agentTools: oneOf(o.agentTools, 'sessionboxer.agentTools', AGENT_TOOLS_POLICIES),
    sessionCreation: oneOf(
      o.sessionCreation,
      'sessionboxer.sessionCreation',
      SESSION_CREATION_POLICIES,
    ),
    globalCap: integer(o.globalCap, 'sessionboxer.globalCap', 0, GLOBAL_CAP_MAX),
  };
}

function gitIdentity(value: unknown): Settings['gitIdentity'] {
  if (value === null) return null;
  const o = section(value, 'gitIdentity', ['name', 'email']);
  const email = text(o.email, 'gitIdentity.email', 254);
  if (!EMAIL.test(email))
    throw invalid('gitIdentity.email', 'gitIdentity.email must be an email address');
  return { name: text(o.name, 'gitIdentity.name', 100), email };
}

/** A token or secret: kept exactly, one word (a pasted newline or space is a mistake). */
function secret(value: unknown, field: string): string | null {
  if (value === null) return null;
  if (typeof value !== 'string' || value.length === 0 || characters(value) > SECRET_MAX) {
    throw invalid(field, `${field} must be null or a string of 1–${SECRET_MAX} characters`);
  }
  if (/\s/u.test(value) || CONTROL.test(value)) {
    throw invalid(field, `${field} must not contain spaces or control characters`);
  }
  return value;
}

function desktop(value: unknown): Settings['desktop'] {
  const o = section(value, 'desktop', ['narration', 'askAboveSeconds']);
  return {
    narration: oneOf(o.narration, 'desktop.narration', NARRATION_MODES),
    askAboveSeconds: integer(o.askAboveSeconds, 'desktop.askAboveSeconds', 0, 3600),
  };
}

function autoQa(value: unknown): Settings['autoQa'] {
  const o = section(value, 'autoQa', ['afterEachTurn']);
  return { afterEachTurn: bool(o.afterEachTurn, 'autoQa.afterEachTurn') };
}

function notifications(value: unknown): Settings['notifications'] {
  const o = section(value, 'notifications', ['mcp']);
  const mcp = section(o.mcp, 'notifications.mcp', ['debounceMs']);
  const field = 'notifications.mcp.debounceMs';
  return { mcp: { debounceMs: integer(mcp.debounceMs, field, 0, DEBOUNCE_MS_MAX) } };
}

function github(value: unknown): Settings['github'] {
  const o = section(value, 'github', ['token', 'webhookSecret', 'pollSeconds']);
  return {
    token: secret(o.token, 'github.token'),
    webhookSecret: secret(o.webhookSecret, 'github.webhookSecret'),
    pollSeconds: integer(o.pollSeconds, 'github.pollSeconds', POLL_SECONDS_MIN, POLL_SECONDS_MAX),
  };
}

function env(value: unknown, field: string): Record<string, string> {
  const o = object(value, field);
  const entries = Object.entries(o);
  if (entries.length > ENV_MAX)
    throw invalid(field, `${field} must have at most ${ENV_MAX} variables`);
  for (const [name, v] of entries) {
    if (!ENV_NAME.test(name))
      throw invalid(field, `${field}: ${JSON.stringify(name)} is not a variable name`);
    if (typeof v !== 'string' || v.includes('\0') || characters(v) > ENV_VALUE_MAX) {
      throw invalid(
        `${field}.${name}`,
        `${field}.${name} must be a string of at most ${ENV_VALUE_MAX} characters without NUL`,
      );
    }
  }
  return { ...(o as Record<string, string>) };
}

function mcpServer(value: unknown, i: number): McpServerEntry {
  const field = `mcpRegistry[${i}]`;
  const relayed = isPlainObject(value) && 'relay' in value;
  const o = section(value, field, relayed ? ['name', 'relay'] : ['name', 'command', 'env']);
  if (typeof o.name !== 'string' || !MCP_NAME.test(o.name)) {
    throw invalid(`${field}.name`, `${field}.name must be 1–64 letters, digits, "_" or "-"`);
  }
  if (RESERVED_MCP_NAMES.includes(o.name.toLowerCase())) {
    throw invalid(
      `${field}.name`,
      `${field}.name ${o.name} is a built-in server's name; pick another`,
    );
  }
  if (relayed)
    return { name: o.name, relay: oneOf(o.relay, `${field}.relay`, RELAYED_MCP_SERVERS) };
  return {
    name: o.name,
    command: argv(o.command, `${field}.command`),
    env: env(o.env, `${field}.env`),
  };
}

function mcpRegistry(value: unknown): McpServerEntry[] {
  if (!Array.isArray(value)) throw invalid('mcpRegistry', 'mcpRegistry must be a list');
  if (value.length > MCP_REGISTRY_MAX) {
    throw invalid('mcpRegistry', `mcpRegistry must have at most ${MCP_REGISTRY_MAX} servers`);
  }
  const servers = value.map(mcpServer);
  const names = servers.map((s) => s.name.toLowerCase());
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice !== undefined)
    throw invalid('mcpRegistry', `mcpRegistry names ${twice} twice; names must be unique`);
  const relays = servers.flatMap((s) => ('relay' in s ? [s.relay] : []));
  const relayedTwice = relays.find((r, i) => relays.indexOf(r) !== i);
  if (relayedTwice !== undefined) {
    throw invalid('mcpRegistry', `mcpRegistry gives ${relayedTwice} twice; once is enough`);
  }
  return servers;
}

function environments(value: unknown): Settings['environments'] {
  if (!Array.isArray(value) || value.length === 0) {
    throw invalid('environments', 'environments must list at least one environment');
  }
  const list = value.map((e, i) => oneOf(e, `environments[${i}]`, SESSION_ENVIRONMENTS));
  if (new Set(list).size !== list.length)
    throw invalid('environments', 'environments must not repeat one');
  return list;
}

/** The whole object, every field checked, plus the rule that joins two sections. */
export function validSettings(value: Record<string, unknown>): Settings {
  onlyKeys(value, '', SETTINGS_SECTIONS);
  const settings: Settings = {
    defaults: defaults(value.defaults),
    sessionboxer: policy(value.sessionboxer),
    gitIdentity: gitIdentity(value.gitIdentity),
    github: github(value.github),
    mcpRegistry: mcpRegistry(value.mcpRegistry),
    environments: environments(value.environments),
    // Settings recorded before this section existed have none: they meant the default.
    desktop: desktop(value.desktop ?? defaultSettings.desktop),
    autoQa: autoQa(value.autoQa ?? defaultSettings.autoQa),
    notifications: notifications(value.notifications ?? defaultSettings.notifications),
  };
  if (!settings.environments.includes(settings.defaults.environment)) {
    throw invalid(
      'defaults.environment',
      `defaults.environment ${settings.defaults.environment} is not one of the available environments (${settings.environments.join(', ')})`,
    );
  }
  return settings;
}

/** A field given as `undefined` (possible in-process, never in JSON) is one left out. */
function defined(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}

const MERGED: readonly (keyof Settings)[] = [
  'defaults',
  'sessionboxer',
  'github',
  'desktop',
  'autoQa',
  'notifications',
];

/** Applies a patch as SettingsPatch describes; the result is checked by validSettings. */
export function mergePatch(current: Settings, patch: unknown): Record<string, unknown> {
  const p = object(patch, 'patch');
  onlyKeys(p, 'patch', SETTINGS_SECTIONS);
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(p)) {
    if (value === undefined) continue;
    if (!(MERGED as readonly string[]).includes(key)) {
      merged[key] = value;
    } else if (isPlainObject(value)) {
      merged[key] = { ...(merged[key] as object), ...defined(value) };
    } else {
      throw invalid(key, `${key} must be an object of the fields to change`);
    }
  }
  return merged;
}
