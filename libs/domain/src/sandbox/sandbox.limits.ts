/**
 * The sandbox API's limits and tables, once: the decider, the tools' zod schemas, the CLI and
 * the docs (docs/SANDBOXES.md) all read them from here.
 */

export type SandboxSize = 'small' | 'standard' | 'large' | 'xl';
export const SANDBOX_SIZES: readonly SandboxSize[] = ['small', 'standard', 'large', 'xl'];

export interface SizeSpec {
  cpu: number;
  memory_gib: number;
  disk_gib: number;
  cents_per_hour: number;
}

/** What each size gets and costs while it runs. */
export const SIZE_TABLE: Readonly<Record<SandboxSize, SizeSpec>> = {
  small: { cpu: 1, memory_gib: 2, disk_gib: 10, cents_per_hour: 5 },
  standard: { cpu: 2, memory_gib: 4, disk_gib: 20, cents_per_hour: 10 },
  large: { cpu: 4, memory_gib: 8, disk_gib: 40, cents_per_hour: 20 },
  xl: { cpu: 8, memory_gib: 16, disk_gib: 80, cents_per_hour: 40 },
};

/** A stopped sandbox's stored data: 6¢ per GiB a month (a month of 30 days). */
export const STOPPED_CENTS_PER_GIB_MONTH = 6;
export const MONTH_MS = 30 * 24 * 3600 * 1000;

export const SANDBOX_NAME_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const SANDBOX_NAME_MAX_LENGTH = 63;

export const METADATA_MAX_KEYS = 16;
export const METADATA_KEY_PATTERN = /^[a-z0-9_.-]{1,40}$/;
export const METADATA_VALUE_MAX_LENGTH = 256;

/** idle_timeout_seconds: 0 (never) or this range. */
export const IDLE_TIMEOUT_MIN_SECONDS = 60;
export const IDLE_TIMEOUT_MAX_SECONDS = 604_800;

export const IDEMPOTENCY_KEY_MAX_LENGTH = 200;

export const EXEC_TIMEOUT_MIN_SECONDS = 1;
export const EXEC_TIMEOUT_MAX_SECONDS = 600;
export const EXEC_TIMEOUT_DEFAULT_SECONDS = 60;
/** Each of stdout and stderr is cut here. */
export const EXEC_OUTPUT_MAX_BYTES = 1024 * 1024;
export const EXEC_COMMAND_MAX_LENGTH = 131_072;
export const EXEC_DEFAULT_CWD = '/root';
export const EXEC_ENV_MAX_KEYS = 64;

/** sandbox_read_file / sandbox_write_file. */
export const FILE_MAX_BYTES = 64 * 1024 * 1024;
export const FILE_PATH_MAX_LENGTH = 4096;

/** The default environment every org has. */
export const DEFAULT_ENVIRONMENT = 'default';

/**
 * The spec's refusal codes. A refusal is a DomainError whose `details.code` is one of these;
 * the MCP tools and the REST API answer with it as `error`.
 */
export type SandboxRefusalCode =
  | 'invalid_argument'
  | 'not_found'
  | 'name_taken'
  | 'not_running'
  | 'deleted'
  | 'timeout'
  | 'file_too_large'
  | 'not_a_file'
  | 'write_refused'
  | 'unknown_environment'
  | 'unknown_secrets'
  | 'environment_exists'
  | 'forbidden'
  | 'unauthenticated'
  | 'limit_reached'
  | 'unavailable'
  | 'credentials_missing'
  | 'agent_unavailable'
  | 'too_many_turns'
  | 'conversation_not_found'
  | 'unknown_harness'
  | 'harness_mismatch'
  | 'unknown_model'
  | 'no_desktop'
  | 'desktop_outdated'
  | 'sandbox_has_secrets'
  | 'stale_ref';
