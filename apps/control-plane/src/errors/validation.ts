import { BadRequestException, ValidationPipe, type ValidationError } from '@nestjs/common';
import { ErrorCode } from '@sessionboxer/domain';

function flatten(errors: ValidationError[], prefix = ''): { field: string; problems: string[] }[] {
  return errors.flatMap((e) => {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    const own = e.constraints ? [{ field, problems: Object.values(e.constraints) }] : [];
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

/** The keys Nest's pipe would delete silently (they could reach an object's prototype). */
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'];

/** Every prototype key in a value, by its path; an explicit stack, so depth cannot overflow. */
function prototypeKeys(value: unknown): ValidationError[] {
  const found: ValidationError[] = [];
  const stack: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (stack.length > 0) {
    const { value: v, path } = stack.pop() as { value: unknown; path: string };
    if (typeof v !== 'object' || v === null) continue;
    for (const [key, child] of Object.entries(v)) {
      const at = Array.isArray(v) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
      if (!Array.isArray(v) && PROTOTYPE_KEYS.includes(key)) {
        // The same words class-validator uses for any other unknown key.
        const constraints = { whitelistValidation: `property ${key} should not exist` };
        found.push({ property: at, constraints, children: [] });
      } else stack.push({ value: child, path: at });
    }
  }
  return found;
}

function validationFailed(errors: ValidationError[]): BadRequestException {
  const fields = flatten(errors);
  const message = fields.map((f) => `${f.field}: ${f.problems.join('; ')}`).join(' | ');
  return new BadRequestException({
    error: ErrorCode.ValidationFailed,
    message: message || 'invalid request',
    details: { fields },
  });
}

/**
 * Nest's pipe deletes `__proto__`, `constructor` and `prototype` keys before it validates, so
 * those three were accepted where any other unknown key is refused. Here they are refused,
 * in the same words, wherever they are in a validated body or query.
 */
class StrictValidationPipe extends ValidationPipe {
  protected override stripProtoKeys(value: unknown): void {
    const found = prototypeKeys(value);
    if (found.length > 0) throw validationFailed(found);
  }
}

/**
 * Bodies and queries are validated by class-validator; unknown fields are refused rather than
 * ignored, and the 400 names every field that is wrong and why.
 */
export function validationPipe(): ValidationPipe {
  return new StrictValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: validationFailed,
  });
}
