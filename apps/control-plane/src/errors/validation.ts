import { BadRequestException, ValidationPipe, type ValidationError } from '@nestjs/common';
import { ErrorCode } from '@sessionboxer/domain';

function flatten(errors: ValidationError[], prefix = ''): { field: string; problems: string[] }[] {
  return errors.flatMap((e) => {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    const own = e.constraints ? [{ field, problems: Object.values(e.constraints) }] : [];
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

/**
 * Bodies and queries are validated by class-validator; unknown fields are refused rather than
 * ignored, and the 400 names every field that is wrong and why.
 */
export function validationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: (errors) => {
      const fields = flatten(errors);
      const message = fields.map((f) => `${f.field}: ${f.problems.join('; ')}`).join(' | ');
      return new BadRequestException({
        error: ErrorCode.ValidationFailed,
        message: message || 'invalid request',
        details: { fields },
      });
    },
  });
}
