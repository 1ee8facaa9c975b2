/**
 * The daemon's log: stderr only, because stdout carries the one `ready` line its launcher
 * waits for.
 */
export interface Log {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

function write(level: string, message: string): void {
  process.stderr.write(`sessionboxer-daemon ${level}: ${message}\n`);
}

export const stderrLog: Log = {
  info: (m) => write('info', m),
  warn: (m) => write('warn', m),
  error: (m) => write('error', m),
};

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
