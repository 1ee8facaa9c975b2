import { ErrorCode } from '@sessionboxer/domain';
import { strictInput } from './strict-input';
import { argIssues, ToolCallError } from './call-error';
import type { AnyTool } from './tool';

/**
 * The one check of a call for a set of tools (the sessionboxer tools, the Auto QA tools): the
 * tool's own strict schema (a frame may carry only what the tool takes, as the MCP server
 * already said), then its cross-field rules. Returns the parsed arguments (trimmed,
 * defaults filled in); throws a ToolCallError naming the tool and each wrong field. The box runs
 * it before posting a call, the control plane's gateway again on every frame.
 */
export function callParser(
  what: string,
  tools: readonly AnyTool[],
): (toolName: string, args: unknown) => Record<string, unknown> {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const schemas = new Map(tools.map((t) => [t.name, strictInput(t.input)]));
  return (toolName, args) => {
    const tool = byName.get(toolName);
    const schema = schemas.get(toolName);
    if (tool === undefined || schema === undefined) {
      const names = tools.map((t) => t.name).join(', ');
      const message = `there is no ${what} ${JSON.stringify(toolName)} (the tools are ${names})`;
      throw new ToolCallError(toolName, [{ field: 'tool', message }], ErrorCode.NotFound);
    }
    const parsed = schema.safeParse(args ?? {});
    if (!parsed.success) throw new ToolCallError(toolName, argIssues(parsed.error.issues));
    const issues = tool.check?.(parsed.data) ?? [];
    if (issues.length) throw new ToolCallError(toolName, issues);
    return parsed.data;
  };
}
