import {
  ENV_NAME_PATTERN,
  MCP_SERVER_NAME_PATTERN,
  RESERVED_MCP_NAMES,
} from '@sessionboxer/domain/limits';

/** What PUT /api/settings/mcp-registry/servers/:name takes; an env value null keeps the old one. */
export interface ServerBody {
  command: string[];
  env: Record<string, string | null>;
}

/**
 * The add/replace form's text as the server's body, or what is wrong with it (the server's
 * rules, checked here first): one argument per line; `KEY=value` per line, `KEY` alone keeping
 * the current value.
 */
export function serverBody(
  name: string,
  command: string,
  env: string,
): { body: ServerBody } | { problem: string } {
  if (!MCP_SERVER_NAME_PATTERN.test(name))
    return { problem: 'Name must be 1–64 letters, digits, "_" or "-".' };
  if (RESERVED_MCP_NAMES.includes(name.toLowerCase()))
    return { problem: `${name} is a built-in server's name; pick another.` };
  const argv = command.split('\n').filter((line) => line.trim() !== '');
  if (argv.length === 0) return { problem: 'Command needs at least the program to run.' };
  const vars: Record<string, string | null> = {};
  for (const line of env.split('\n')) {
    if (line.trim() === '') continue;
    const at = line.indexOf('=');
    const key = (at < 0 ? line : line.slice(0, at)).trim();
    if (!ENV_NAME_PATTERN.test(key))
      return { problem: `${key || 'An empty name'} is not an environment variable name.` };
    vars[key] = at < 0 ? null : line.slice(at + 1);
  }
  return { body: { command: argv, env: vars } };
}
