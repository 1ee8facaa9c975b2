import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { sessionDetailsQueries, type SqliteReadModelStore } from '@sessionboxer/projections';
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
import { CallHandlers } from '../calls';
import { CommandBus } from '../infrastructure/command-bus';
import { READ_MODELS } from '../infrastructure/tokens';
import { UiPresence } from '../presence';
import { SnapshotsService } from './snapshots/snapshots.service';
import { Terminals } from './terminals/terminals.service';

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
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
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
      (_args, ctx) =>
        (sessionDetailsQueries(this.readModels).get(ctx.sessionId)?.terminals ?? []).map(
          ({ id, createdAt, exitCode }) => ({ id, createdAt, exitCode }),
        ),
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
