import * as path from 'node:path';
import { BOX_PATHS } from '@sessionboxer/mcp-adapters/bridge/protocol';
import { errorMessage, type Log } from '../log';
import { prettyJson, writeFileAtomic } from './safe-write';

const SESSION_JSON = path.relative(BOX_PATHS.workspace, BOX_PATHS.sessionJson);

/**
 * Keeps `.sessionboxer/session.json` equal to the last `session` push. Pushes that arrive
 * during a write are coalesced: only the newest is written next, and a slow disk never
 * reorders two versions.
 */
export class SessionJsonFile {
  private latest: Record<string, unknown> | null = null;
  private draining: Promise<void> | null = null;

  constructor(
    private readonly workspace: string,
    private readonly log: Log,
  ) {}

  push(session: Record<string, unknown>): void {
    this.latest = session;
    this.draining ??= this.drain().finally(() => (this.draining = null));
  }

  /** Resolves once every push so far is on disk (or failed and was logged). */
  async flushed(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private async drain(): Promise<void> {
    while (this.latest) {
      const next = this.latest;
      this.latest = null;
      try {
        await writeFileAtomic(this.workspace, SESSION_JSON, prettyJson(next));
      } catch (e) {
        this.log.error(`could not write ${SESSION_JSON}: ${errorMessage(e)}`);
      }
    }
  }
}
