/**
 * A tool's name as a person reads it: an MCP tool `mcp__<server>__<tool>` becomes
 * "server · tool"; a built-in tool (Bash, Read, …) keeps its name.
 */
export function readableToolName(name: string): string {
  const mcp = /^mcp__(.+?)__(.+)$/.exec(name);
  return mcp ? `${mcp[1]} · ${mcp[2]}` : name;
}
