import type { z } from 'zod';

/** "field: why; other: why", the way people and agents read it. */
export function describe(error: z.ZodError): string {
  return error.issues
    .map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
}
