import { ID_MAX_LENGTH } from '@sessionboxer/domain';
import { z } from 'zod';

/**
 * Builders for the tools' arguments. Every message names its field, because the model reads
 * it: the SDK's own validation (which knows nothing of `parseCall`) shows these messages too.
 */

/** C0/C1 controls and the Unicode line/paragraph separators: each would break a one-line value. */
const CONTROL = /[\p{Cc}\p{Zl}\p{Zp}]/u;

function string(field: string) {
  return z.string({
    required_error: `${field} is required`,
    invalid_type_error: `${field} must be a string`,
  });
}

/** Trimmed text of 1–`max` characters. */
export function text(field: string, max: number) {
  return string(field)
    .trim()
    .min(1, `${field} must not be empty`)
    .max(max, `${field} must be at most ${max} characters`);
}

/** Like `text`, on one line: no newlines, tabs or other control characters. */
export function line(field: string, max: number) {
  return text(field, max).refine(
    (value) => !CONTROL.test(value),
    `${field} must be one line, without newlines, tabs or other control characters`,
  );
}

/** An id as another tool returned it: taken as given, 1–200 characters, no whitespace. */
export function id(field: string) {
  return string(field)
    .min(1, `${field} must not be empty`)
    .max(ID_MAX_LENGTH, `${field} must be at most ${ID_MAX_LENGTH} characters`)
    .regex(/^\S*$/, `${field} must not contain spaces; pass the id exactly as it was returned`);
}

/** A whole number from `min` to `max`. */
export function int(field: string, min: number, max: number) {
  return z
    .number({
      required_error: `${field} is required`,
      invalid_type_error: `${field} must be a number`,
    })
    .int(`${field} must be a whole number`)
    .min(min, `${field} must be at least ${min}`)
    .max(max, `${field} must be at most ${max}`);
}

/** One of `values`; the message lists them. */
export function oneOf<const T extends readonly [string, ...string[]]>(field: string, values: T) {
  const choices = values.join(', ');
  return z.enum(values, {
    errorMap: (_issue, ctx) => ({
      message:
        ctx.data === undefined
          ? `${field} is required (one of ${choices})`
          : `${field} must be one of ${choices} (got ${JSON.stringify(ctx.data)})`,
    }),
  });
}

/** GitHub owners ("octo-org"), repository names ("my.repo") and PR numbers, as GitHub allows. */
export const OWNER_PART = '[A-Za-z0-9][A-Za-z0-9-]{0,38}';
export const REPO_PART = '[A-Za-z0-9._-]{1,100}';
export const NUMBER_PART = '[1-9]\\d{0,9}';
export const OWNER = new RegExp(`^${OWNER_PART}$`);
export const REPO_NAME = new RegExp(`^${REPO_PART}$`);

/** `owner/repo#number`, the PR id that pr_list and pr_attach return. */
export const PR_ID = new RegExp(`^(${OWNER_PART})/(${REPO_PART})#(${NUMBER_PART})$`);

export function prId(field: string) {
  return string(field)
    .trim()
    .regex(PR_ID, `${field} must be a PR id "owner/repo#number" as pr_list returns it`);
}
