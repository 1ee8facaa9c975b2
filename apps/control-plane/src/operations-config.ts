/** The operations part of the configuration: logs and the metrics endpoint's token. */
export interface OperationsConfig {
  /** SESSIONBOXER_LOG_LEVEL: pino's level (default info; the tests' harness uses silent). */
  logLevel: LogLevelName;
  /** SESSIONBOXER_LOG_FORMAT: json lines, or pretty text (default: pretty on a TTY, else json). */
  logFormat: 'json' | 'pretty';
  /** SESSIONBOXER_METRICS_TOKEN: a bearer token that may read /metrics; null: sign-ins only. */
  metricsToken: string | null;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

/** Shorter tokens are refused: one guessed in a few tries protects nothing. */
export const METRICS_TOKEN_MIN_LENGTH = 16;

/** Reads the three variables; throws an Error naming the variable and what it must be. */
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
  return { logLevel: level, logFormat: format, metricsToken: token };
}
