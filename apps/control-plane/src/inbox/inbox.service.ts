import { Inject, Injectable } from '@nestjs/common';
import type { InboxPage } from '@sessionboxer/contracts';
import {
  DomainError,
  ErrorCode,
  inboxDecider,
  inboxStream,
  type Actor,
} from '@sessionboxer/domain';
import { inboxQueries, type SqliteReadModelStore } from '@sessionboxer/projections';
import { Clock } from '../infrastructure/clock';
import { CommandBus } from '../infrastructure/command-bus';
import { READ_MODELS } from '../infrastructure/tokens';

function person(actor: Actor): string {
  if (actor.kind !== 'person') {
    throw new DomainError(ErrorCode.Forbidden, 'only a signed-in person has an inbox');
  }
  return actor.id;
}

/** A person's inbox across sessions, and marking its items read (kept on the server). */
@Injectable()
export class InboxService {
  constructor(
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    private readonly bus: CommandBus,
    private readonly clock: Clock,
  ) {}

  list(actor: Actor): InboxPage {
    return inboxQueries(this.readModels).forUser(person(actor), this.clock.now().toISOString());
  }

  /** `{ itemIds }`, `{ sessionId }` (that session's items) or `{ all: true }`. */
  async markRead(body: unknown, actor: Actor): Promise<InboxPage> {
    const page = this.list(actor);
    const itemIds = this.idsOf(body, page);
    if (itemIds.length > 0) {
      await this.bus.execute(inboxDecider, inboxStream(person(actor)), {
        type: 'MarkInboxItemsRead',
        data: { itemIds },
        metadata: this.bus.metadata(actor),
      });
    }
    return this.list(actor);
  }

  private idsOf(body: unknown, page: InboxPage): string[] {
    const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const unread = page.items.filter((i) => !i.read);
    if (b.all === true) return unread.map((i) => i.id);
    if (typeof b.sessionId === 'string') {
      return unread.filter((i) => i.sessionId === b.sessionId).map((i) => i.id);
    }
    if (b.itemIds !== undefined) return b.itemIds as string[];
    throw new DomainError(
      ErrorCode.ValidationFailed,
      'give itemIds (an array), sessionId, or all: true',
      {
        field: 'body',
      },
    );
  }
}
