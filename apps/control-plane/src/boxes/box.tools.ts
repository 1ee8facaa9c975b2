import { Injectable, type OnModuleInit } from '@nestjs/common';
import { sessionDecider, sessionStream } from '@sessionboxer/domain';
import {
  snapshotTool,
  terminalListTool,
  terminalReadTool,
  uiOpenTool,
  type CallContext,
  type UiOpenResult,
  type UiPane,
} from '@sessionboxer/mcp-adapters';
import { DaemonChannel } from './channel/daemon-channel';
import { CallHandlers } from '../calls/call-handlers';
import { CommandBus } from '../infrastructure/command-bus';
import { UiPresence } from '../presence/ui-presence';
import { SnapshotsService } from './snapshots/snapshots.service';
import { Terminals } from './terminals/terminals.service';
import { WhoAmIBuilder } from '../sessions/whoami.builder';

/** The tools about the calling session's box: Snapshots, Terminals, and opening a pane. */
@Injectable()
export class BoxTools implements OnModuleInit {
  constructor(
    private readonly handlers: CallHandlers,
    private readonly bus: CommandBus,
    private readonly snapshots: SnapshotsService,
    private readonly terminals: Terminals,
    private readonly channel: DaemonChannel,
    private readonly presence: UiPresence,
    private readonly whoami: WhoAmIBuilder,
  ) {}

  onModuleInit(): void {
    const tools = this.handlers.sessionboxer;
    const owner = 'boxes';
    tools.register(
      snapshotTool,
      (_args, ctx) => this.snapshots.take(ctx.sessionId, ctx.actor, ctx.key),
      owner,
    );
    tools.register(
      terminalListTool,
      async (_args, ctx) => (await this.whoami.build(ctx.sessionId)).terminals,
      owner,
    );
    tools.register(
      terminalReadTool,
      ({ id, lines }, ctx) =>
        this.channel.request(ctx.sessionId, 'terminal.read', { terminalId: id, lines }),
      owner,
    );
    tools.register(
      uiOpenTool,
      ({ pane, terminal }, ctx) => this.openUi(pane, terminal, ctx),
      owner,
    );
  }

  private async openUi(
    pane: UiPane,
    terminal: { command: string } | undefined,
    ctx: CallContext,
  ): Promise<UiOpenResult> {
    const { sessionId } = ctx;
    const terminalId = terminal ? ctx.idFor('terminal') : null;
    if (terminal && terminalId) {
      // The agent's command runs in its own box, in a shell, as it would type it in a Terminal.
      await this.terminals.open(sessionId, terminalId, ['/bin/bash', '-lc', terminal.command]);
    }
    const shown = this.presence.showTo(sessionId, 'pane', { sessionId, pane, terminalId });
    const command = terminal?.command ?? null;
    await this.bus.execute(sessionDecider, sessionStream(sessionId), {
      type: 'RequestPane',
      data: { sessionId, pane, shown, terminalId, command },
      metadata: this.bus.metadata(ctx.actor, ctx.nextKey()),
    });
    return { pane, terminalId, shown };
  }
}
