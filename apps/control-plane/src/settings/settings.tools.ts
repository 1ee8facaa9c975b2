import { Injectable, type OnModuleInit } from '@nestjs/common';
import { withoutSecrets } from '@sessionboxer/domain';
import { settingsGetTool, type CallContext } from '@sessionboxer/mcp-adapters';
import { CallHandlers } from '../calls';
import { PolicyService } from './policy/policy.service';
import { SettingsService } from './settings.service';

/** settings_get: the public settings as they apply to the calling session. */
@Injectable()
export class SettingsTools implements OnModuleInit {
  constructor(
    private readonly handlers: CallHandlers,
    private readonly settings: SettingsService,
    private readonly policy: PolicyService,
  ) {}

  onModuleInit(): void {
    const tools = this.handlers.sessionboxer;
    tools.register(settingsGetTool, (_args, ctx) => this.settingsFor(ctx), 'settings');
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
}
