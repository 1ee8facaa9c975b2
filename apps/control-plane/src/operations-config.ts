/** The operations part of the configuration: logs, the metrics endpoint's token, the instance. */
export interface OperationsConfig {
  /** SESSIONBOXER_LOG_LEVEL: pino's level (default info; the tests' harness uses silent). */
  logLevel: LogLevelName;
  /** SESSIONBOXER_LOG_FORMAT: json lines, or pretty text (default: pretty on a TTY, else json). */
  logFormat: 'json' | 'pretty';
  /** SESSIONBOXER_METRICS_TOKEN: a bearer token that may read /metrics; null: sign-ins only. */
  metricsToken: string | null;
  /**
   * SESSIONBOXER_INSTANCE: this control-plane process's name among the instances sharing one
   * event store (docs/SCALING.md); `default` for the one of a single-instance installation.
   */
  instance: string;
  /**
   * SESSIONBOXER_INTERNAL_URL: where the other instances reach this one (forwarded requests,
   * box operations); null: the address the server bound.
   */
  internalUrl: string | null;
}

export const INSTANCE_PATTERN = /^[a-z0-9][a-z0-9-]{0,39}$/;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

/** Shorter tokens are refused: one guessed in a few tries protects nothing. */
export const METRICS_TOKEN_MIN_LENGTH = 16;

/** Reads its variables; throws an Error naming the variable and what it must be. */
export function operationsConfig(
  env: NodeJS.ProcessEnv,
  stdoutIsTty = Boolean(process.stdout.isTTY),
): OperationsConfig {
  const level = (env.SESSIONBOXER_LOG_LEVEL?.trim() || 'info') as LogLevelName;
  if (!LOG_LEVELS.includes(level)) {
    throw new Error(
      `SESSIONBOXER_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(env.SESSIONBOXER_LOG_LEVEL)}`,
    );
  }
  const format = env.SESSIONBOXER_LOG_FORMAT?.trim() || (stdoutIsTty ? 'pretty' : 'json');
  if (format !== 'json' && format !== 'pretty') {
    throw new Error(
      `SESSIONBOXER_LOG_FORMAT must be json or pretty, got ${JSON.stringify(env.SESSIONBOXER_LOG_FORMAT)}`,
    );
  }
  const token = env.SESSIONBOXER_METRICS_TOKEN?.trim() || null;
  if (token !== null && (token.length < METRICS_TOKEN_MIN_LENGTH || /\s/.test(token))) {
    throw new Error(
      `SESSIONBOXER_METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN_LENGTH} characters without spaces`,
    );
  }
  const instance = env.SESSIONBOXER_INSTANCE?.trim() || 'default';
  if (!INSTANCE_PATTERN.test(instance)) {
    throw new Error(
      `SESSIONBOXER_INSTANCE must be 1 to 40 lower-case letters, digits and dashes, got ${JSON.stringify(env.SESSIONBOXER_INSTANCE)}`,
    );
  }
  const internal = env.SESSIONBOXER_INTERNAL_URL?.trim().replace(/\/+$/, '') || null;
  if (internal !== null && !/^https?:\/\/[^/?#\s]+$/.test(internal)) {
    throw new Error(
      `SESSIONBOXER_INTERNAL_URL must be http(s)://host[:port] without a path, got ${JSON.stringify(env.SESSIONBOXER_INTERNAL_URL)}`,
    );
  }
  return {
    logLevel: level,
    logFormat: format,
    metricsToken: token,
    instance,
    internalUrl: internal,
  };
}
