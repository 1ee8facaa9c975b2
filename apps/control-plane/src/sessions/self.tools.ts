import { Injectable, type OnModuleInit } from '@nestjs/common';
import { sessionDecider, sessionStream } from '@sessionboxer/domain';
import { notifyTool, titleSetTool, whoamiTool, type CallContext } from '@sessionboxer/mcp-adapters';
import { CallHandlers } from '../calls';
import { CommandBus } from '../infrastructure/command-bus';
import { UiPresence } from '../presence';
import { WhoAmIBuilder } from './whoami.builder';

/** The tools a session's agent uses about itself: whoami, title_set, notify. */
@Injectable()
export class SelfTools implements OnModuleInit {
  constructor(
    private readonly handlers: CallHandlers,
    private readonly bus: CommandBus,
    private readonly whoami: WhoAmIBuilder,
    private readonly presence: UiPresence,
  ) {}

  onModuleInit(): void {
    const tools = this.handlers.sessionboxer;
    tools.register(whoamiTool, (_args, ctx) => this.whoami.build(ctx.sessionId), 'sessions');
    tools.register(titleSetTool, ({ title }, ctx) => this.setTitle(title, ctx), 'sessions');
    tools.register(notifyTool, ({ text }, ctx) => this.notify(text, ctx), 'sessions');
  }

  /** Answers with what it set: the parser trimmed the title, renaming to it changes nothing. */
  private async setTitle(title: string, ctx: CallContext): Promise<{ id: string; title: string }> {
    const metadata = this.bus.metadata(ctx.actor, ctx.nextKey());
    const data = { sessionId: ctx.sessionId, title };
    await this.bus.execute(sessionDecider, sessionStream(ctx.sessionId), {
      type: 'SetSessionTitle',
      data,
      metadata,
    });
    return { id: ctx.sessionId, title };
  }

  private async notify(text: string, ctx: CallContext): Promise<{ ok: true }> {
    const { sessionId } = ctx;
    const notificationId = ctx.idFor('notification');
    await this.bus.execute(sessionDecider, sessionStream(sessionId), {
      type: 'Notify',
      data: { sessionId, notificationId, text, source: 'agent' },
      metadata: this.bus.metadata(ctx.actor, ctx.nextKey()),
    });
    this.presence.broadcast(sessionId, 'notification', { sessionId, notificationId, text });
    return { ok: true };
  }
}
