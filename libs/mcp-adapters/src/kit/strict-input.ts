import { z, type ZodErrorMap } from 'zod';

/**
 * The one rule for arguments a tool does not take: refused, by name, everywhere. Every MCP
 * server registers `strictInput(tool.input)`, so the SDK refuses such a call before the tool
 * runs (the same -32602 tool error from the desktop and the sessionboxer servers), and the call
 * parsers of the box and the control plane check frames with the very same schemas.
 */

/** Why `keys` are refused: names them (with their path) and lists what the object takes. */
export function unknownKeysMessage(
  path: readonly (string | number)[],
  keys: readonly string[],
  known: readonly string[],
): string {
  const where = path.map(String).join('.');
  const names = keys.map((k) => (where ? `${where}.${k}` : k)).join(', ');
  const one = keys.length === 1;
  const takes = known.length ? `it takes ${known.join(', ')}` : 'it takes no parameters';
  const what = where
    ? `${one ? 'is not a field' : 'are not fields'} of ${where}`
    : `${one ? 'is not a parameter' : 'are not parameters'} of this tool`;
  return `${names} ${what} (${takes})`;
}

/** Zod's messages, except for unknown keys (named as above) and a wrong type (`invalidType`). */
function errorMap(known: readonly string[], invalidType?: string): ZodErrorMap {
  return (issue, ctx) => {
    if (issue.code === 'unrecognized_keys') {
      return { message: unknownKeysMessage(issue.path, issue.keys, known) };
    }
    if (issue.code === 'invalid_type' && invalidType !== undefined) return { message: invalidType };
    return { message: ctx.defaultError };
  };
}

/** An object that refuses keys it does not know, naming them; for objects nested in a tool's input. */
export function strictObject<Shape extends z.ZodRawShape>(shape: Shape, invalidType?: string) {
  return z.object(shape, { errorMap: errorMap(Object.keys(shape), invalidType) }).strict();
}

/** A tool's whole input schema: its fields, and nothing else. */
export function strictInput<Shape extends z.ZodRawShape>(shape: Shape) {
  return strictObject(shape);
}
