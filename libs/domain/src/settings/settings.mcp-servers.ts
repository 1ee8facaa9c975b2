import { DomainError, ErrorCode } from '../kernel';
import { invalid, isPlainObject } from '../kernel/validation';
import type { PutMcpServer, RemoveMcpServer } from './settings.commands';
import { isRelayedEntry, type McpServerEntry, type Settings } from './settings.state';
import { validSettings } from './settings.validation';

/**
 * One stdio server of the MCP registry added or replaced, the others (and their secrets) kept.
 * An env value of `null` keeps that key's current value: editing a server from the UI, which
 * never sees the values, does not make a person type its keys again.
 */
export function putMcpServer(command: PutMcpServer, settings: Settings): Settings {
  const entry = command.data.entry;
  if (!isPlainObject(entry)) throw invalid('entry', 'entry must be an object');
  if ('relay' in entry)
    throw invalid('entry', 'entry.relay: relayed servers are given with their own switch');
  const registry = settings.mcpRegistry;
  const old = registry.find((e) => e.name === entry.name);
  if (old && isRelayedEntry(old))
    throw invalid('entry.name', `${String(entry.name)} is a relayed server's name; pick another`);
  const env = isPlainObject(entry.env) ? { ...entry.env } : entry.env;
  if (isPlainObject(env)) {
    for (const [key, value] of Object.entries(env)) {
      if (value !== null) continue;
      const kept = old && !isRelayedEntry(old) ? old.env[key] : undefined;
      if (kept === undefined)
        throw invalid(`entry.env.${key}`, `entry.env.${key} has no current value to keep`);
      env[key] = kept;
    }
  }
  const next = { ...entry, env } as McpServerEntry;
  const mcpRegistry = old
    ? registry.map((e) => (e.name === old.name ? next : e))
    : [...registry, next];
  return validSettings({ ...settings, mcpRegistry });
}

/** One stdio server taken out of the registry by name. */
export function removeMcpServer(command: RemoveMcpServer, settings: Settings): Settings {
  const name = command.data.name;
  const found = settings.mcpRegistry.find((e) => e.name === name);
  if (!found)
    throw new DomainError(ErrorCode.NotFound, `the MCP registry has no server ${String(name)}`);
  if (isRelayedEntry(found))
    throw invalid('name', `${found.name} is relayed: take it back with its own switch`);
  return { ...settings, mcpRegistry: settings.mcpRegistry.filter((e) => e !== found) };
}
