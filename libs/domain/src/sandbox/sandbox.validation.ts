import { characters, CONTROL, isPlainObject } from '../kernel/validation';
import {
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDLE_TIMEOUT_MAX_SECONDS,
  IDLE_TIMEOUT_MIN_SECONDS,
  METADATA_KEY_PATTERN,
  METADATA_MAX_KEYS,
  METADATA_VALUE_MAX_LENGTH,
  SANDBOX_NAME_MAX_LENGTH,
  SANDBOX_NAME_PATTERN,
  SANDBOX_SIZES,
  type SandboxSize,
} from './sandbox.limits';
import { badArgument } from './sandbox.refusals';

/** Lower case letters, digits and dashes (no leading, trailing or double dash). */
export function validSandboxName(value: unknown, field = 'name'): string {
  if (
    typeof value !== 'string' ||
    value.length > SANDBOX_NAME_MAX_LENGTH ||
    !SANDBOX_NAME_PATTERN.test(value)
  ) {
    throw badArgument(
      field,
      `${field} must be 1–${SANDBOX_NAME_MAX_LENGTH} lower case letters, digits and dashes, such as sb-3f2a9c (got ${JSON.stringify(value)})`,
    );
  }
  return value;
}

export function validSize(value: unknown): SandboxSize {
  const found = SANDBOX_SIZES.find((s) => s === value);
  if (found === undefined) {
    throw badArgument(
      'size',
      `size must be one of ${SANDBOX_SIZES.join(', ')} (got ${JSON.stringify(value)})`,
    );
  }
  return found;
}

/** 0 (never) or 60 to 604800 seconds. */
export function validIdleTimeout(value: unknown): number {
  const ok =
    typeof value === 'number' &&
    Number.isInteger(value) &&
    (value === 0 || (value >= IDLE_TIMEOUT_MIN_SECONDS && value <= IDLE_TIMEOUT_MAX_SECONDS));
  if (!ok) {
    throw badArgument(
      'idle_timeout_seconds',
      `idle_timeout_seconds must be 0 (never) or a whole number from ${IDLE_TIMEOUT_MIN_SECONDS} to ${IDLE_TIMEOUT_MAX_SECONDS} (got ${JSON.stringify(value)})`,
    );
  }
  return value;
}

export function validFlag(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') throw badArgument(field, `${field} must be true or false`);
  return value;
}

/** Up to 16 keys of 1–40 `[a-z0-9_.-]`, string values of up to 256 characters. */
export function validMetadata(value: unknown, field = 'metadata'): Record<string, string> {
  if (!isPlainObject(value)) throw badArgument(field, `${field} must be an object of strings`);
  const entries = Object.entries(value);
  if (entries.length > METADATA_MAX_KEYS) {
    throw badArgument(
      field,
      `${field} may have at most ${METADATA_MAX_KEYS} keys (it has ${entries.length})`,
    );
  }
  for (const [key, v] of entries) {
    if (!METADATA_KEY_PATTERN.test(key)) {
      throw badArgument(
        field,
        `${field} key ${JSON.stringify(key)} must be 1–40 lower case letters, digits, "_", "." or "-"`,
      );
    }
    if (typeof v !== 'string' || characters(v) > METADATA_VALUE_MAX_LENGTH) {
      throw badArgument(
        field,
        `${field}.${key} must be a string of at most ${METADATA_VALUE_MAX_LENGTH} characters`,
      );
    }
  }
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : 1))) as Record<string, string>;
}

export function validIdempotencyKey(value: unknown): string {
  if (
    typeof value !== 'string' ||
    value.length === 0 ||
    characters(value) > IDEMPOTENCY_KEY_MAX_LENGTH ||
    CONTROL.test(value)
  ) {
    throw badArgument(
      'idempotency_key',
      `idempotency_key must be 1–${IDEMPOTENCY_KEY_MAX_LENGTH} characters on one line`,
    );
  }
  return value;
}

/** The name of a secret, as the environment variable it becomes. */
export const SECRET_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

export function validSecretNames(value: unknown, field = 'secrets'): string[] {
  if (!Array.isArray(value)) throw badArgument(field, `${field} must be a list of secret names`);
  const names = value.map((n: unknown, i) => {
    if (typeof n !== 'string' || !SECRET_NAME_PATTERN.test(n)) {
      throw badArgument(
        field,
        `${field}[${i}] must be a secret name such as OPENAI_API_KEY (letters, digits, _)`,
      );
    }
    return n;
  });
  return [...new Set(names)];
}
