import { Forge, ForgeItem, ForgePr, PrRef, prId } from '../../src/pull-requests/forge/forge.port';

/** A review comment whose body is its id. */
export function item(id: string): ForgeItem {
  const base = { author: 'alice', path: null, line: null, conclusion: null, url: null };
  return { ...base, id, kind: 'review_comment', body: id, createdAt: '2024-05-01T00:00:00Z' };
}

/**
 * An in-memory Forge for the poller's unit tests (no HTTP; the GitHub test double beside it is
 * for the adapter). `hold()` keeps the next getPr calls waiting until `release()`.
 */
export class FakeForge implements Forge {
  readonly items = new Map<string, ForgeItem[]>();
  readonly failures = new Map<string, Error>();
  readonly calls: string[] = [];
  inFlight = 0;
  maxInFlight = 0;
  private gate: Promise<void> | null = null;
  private open: () => void = () => undefined;

  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }

  release(): void {
    this.gate = null;
    this.open();
  }

  async getPr(ref: PrRef): Promise<ForgePr> {
    this.calls.push(prId(ref));
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      if (this.gate) await this.gate;
      const failure = this.failures.get(prId(ref));
      if (failure) throw failure;
      return {
        ...ref,
        url: `https://github.com/${prId(ref)}`,
        title: 't',
        state: 'open',
        headSha: 's',
      };
    } finally {
      this.inFlight--;
    }
  }

  listItems(pr: ForgePr): Promise<ForgeItem[]> {
    return Promise.resolve(this.items.get(prId(pr)) ?? []);
  }
}
