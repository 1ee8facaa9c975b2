import { Injectable, type OnModuleInit } from '@nestjs/common';
import { sessionDecider, sessionStream, withoutSecrets } from '@sessionboxer/domain';
import {
  notifyTool,
  settingsGetTool,
  titleSetTool,
  whoamiTool,
  type CallContext,
} from '@sessionboxer/mcp-adapters';
import { CallHandlers } from '../calls/call-handlers';
import { CommandBus } from '../infrastructure/command-bus';
import { PolicyService } from '../settings/policy/policy.service';
import { SettingsService } from '../settings/settings.service';
import { UiPresence } from '../presence/ui-presence';
import { WhoAmIBuilder } from './whoami.builder';

/** The tools a session's agent uses about itself: whoami, settings_get, title_set, notify. */
@Injectable()
export class SelfTools implements OnModuleInit {
  constructor(
    private readonly handlers: CallHandlers,
    private readonly bus: CommandBus,
    private readonly whoami: WhoAmIBuilder,
    private readonly settings: SettingsService,
    private readonly policy: PolicyService,
    private readonly presence: UiPresence,
  ) {}

  onModuleInit(): void {
    const tools = this.handlers.sessionboxer;
    tools.register(whoamiTool, (_args, ctx) => this.whoami.build(ctx.sessionId), 'sessions');
    tools.register(settingsGetTool, (_args, ctx) => this.settingsFor(ctx), 'settings');
    tools.register(titleSetTool, ({ title }, ctx) => this.setTitle(title, ctx), 'sessions');
    tools.register(notifyTool, ({ text }, ctx) => this.notify(text, ctx), 'sessions');
  }

  /**
   * The public settings with this session's policy in force, not the global default. Secrets
   * are removed again here, so a settings field added later without that care cannot leak.
   */
  private async settingsFor(ctx: CallContext): Promise<Record<string, unknown>> {
    const [{ settings }, policy] = await Promise.all([
      this.settings.view(),
      this.policy.sessionboxerFor(ctx.sessionId),
    ]);
    return withoutSecrets({ ...settings, sessionboxer: { ...settings.sessionboxer, ...policy } });
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
