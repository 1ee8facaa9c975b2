import { DomainError, ErrorCode } from '@sessionboxer/domain';
import type { ZodIssue } from 'zod';
import type { ArgIssue } from './tool';

/**
 * A sessionboxer call refused before it did anything: an unknown tool (NOT_FOUND) or arguments
 * that do not fit the tool (VALIDATION_FAILED). It is a DomainError, so the control plane's one
 * error table answers it like any other refusal; the message names the tool and every field.
 */
export class ToolCallError extends DomainError {
  constructor(
    readonly tool: string,
    readonly issues: ArgIssue[],
    code: ErrorCode.ValidationFailed | ErrorCode.NotFound = ErrorCode.ValidationFailed,
  ) {
    super(code, `${tool}: ${issues.map((i) => i.message).join('; ')}`, {
      tool,
      fields: issues,
    });
    this.name = 'ToolCallError';
  }

  /** The first wrong field, or null when the tool itself is unknown. */
  get field(): string | null {
    return this.issues[0]?.field ?? null;
  }
}

export function isToolCallError(e: unknown): e is ToolCallError {
  return e instanceof ToolCallError;
}

/** `terminal.command`, `itemIds[3]`. */
function fieldPath(path: (string | number)[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i ? `.${p}` : p)).join('');
}

/**
 * Zod's issues as ArgIssues whose messages name their field (the builders' messages do, and
 * strictInput's name the unknown keys).
 */
export function argIssues(issues: ZodIssue[]): ArgIssue[] {
  return issues.map((issue): ArgIssue => {
    if (issue.code === 'unrecognized_keys') {
      return { field: fieldPath([...issue.path, issue.keys[0]]), message: issue.message };
    }
    const field = fieldPath(issue.path) || '(arguments)';
    const named = issue.message.includes(String(issue.path[0] ?? field));
    return { field, message: named ? issue.message : `${field}: ${issue.message}` };
  });
}
