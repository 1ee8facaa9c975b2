/**
 * A progress bar on stderr for long runs: redrawn in place on a terminal, one line per 10 %
 * otherwise (logs, CI). Silent for runs too short to need it.
 */
export class ProgressBar {
  private lastDecile = -1;
  private readonly startedAt = process.hrtime.bigint();

  constructor(
    private readonly label: string,
    private readonly out: NodeJS.WriteStream = process.stderr,
    private readonly minTotal = 10_000,
    private readonly unit = 'events',
  ) {}

  update(done: number, total: number): void {
    if (total < this.minTotal) return;
    const fraction = total === 0 ? 1 : Math.min(1, done / total);
    const rate = Math.round(done / Math.max(this.elapsedSeconds(), 1e-3));
    const text = `${this.label} ${bar(fraction)} ${(fraction * 100).toFixed(0).padStart(3)}% ${done.toLocaleString('en')}/${total.toLocaleString('en')} ${this.unit}, ${rate.toLocaleString('en')}/s`;
    if (this.out.isTTY) {
      this.out.write(`\r${text}`);
      return;
    }
    const decile = Math.floor(fraction * 10);
    if (decile > this.lastDecile) {
      this.lastDecile = decile;
      this.out.write(`${text}\n`);
    }
  }

  done(): void {
    if (this.out.isTTY && this.lastDecile !== -2) this.out.write('\n');
    this.lastDecile = -2;
  }

  private elapsedSeconds(): number {
    return Number(process.hrtime.bigint() - this.startedAt) / 1e9;
  }
}

function bar(fraction: number, width = 30): string {
  const full = Math.round(fraction * width);
  return `[${'#'.repeat(full)}${'.'.repeat(width - full)}]`;
}
