import type { Log } from '../../log';

/** A Log that keeps every line, for tests that check what was reported. */
export class RecordingLog implements Log {
  readonly lines: { level: 'info' | 'warn' | 'error'; message: string }[] = [];

  info(message: string): void {
    this.lines.push({ level: 'info', message });
  }

  warn(message: string): void {
    this.lines.push({ level: 'warn', message });
  }

  error(message: string): void {
    this.lines.push({ level: 'error', message });
  }

  of(level: 'info' | 'warn' | 'error'): string[] {
    return this.lines.filter((l) => l.level === level).map((l) => l.message);
  }
}
