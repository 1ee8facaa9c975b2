import { Inject, Injectable } from '@nestjs/common';
import type { SshTerminalView } from '@sessionboxer/contracts';
import {
  sshTerminalDecider,
  sshTerminalStream,
  type Actor,
  type SshTerminalCommand,
} from '@sessionboxer/domain';
import { sshTerminalQueries, type SqliteReadModelStore } from '@sessionboxer/projections';
import { CommandBus } from '../../infrastructure/command-bus';
import { READ_MODELS } from '../../infrastructure/tokens';
import { TerminalClock } from './terminal-clock';
import { TerminalsFeed } from './terminals-feed';

/** The actor of what the terminal MCP records on its own (opened, output, closed). */
export const TERMINAL_SYSTEM: Actor = { kind: 'system', id: 'terminal-mcp' };

/**
 * The SSH terminals' write side and read model: commands at the terminal clock's time (so the
 * clock seam moves the deciders' time too), and every change pushed to the browsers.
 */
@Injectable()
export class TerminalCommands {
  constructor(
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    private readonly bus: CommandBus,
    private readonly clock: TerminalClock,
    private readonly feed: TerminalsFeed,
  ) {}

  /** Runs a command; answers how many events it appended. */
  async run(
    terminalId: string,
    type: SshTerminalCommand['type'],
    data: unknown,
    actor: Actor,
    options: { at?: string; wait?: boolean } = {},
  ): Promise<number> {
    const at = options.at ?? this.clock.now().toISOString();
    const wait = options.wait ?? true;
    const command = {
      type,
      data,
      metadata: { ...this.bus.metadata(actor), at },
    } as SshTerminalCommand;
    const stream = sshTerminalStream(terminalId);
    const result = await this.bus.execute(sshTerminalDecider, stream, command, { wait });
    if (wait && result.events.length > 0) this.feed.changed(() => this.views());
    return result.events.length;
  }

  /** A batch of output bytes, recorded behind the buffer (nobody waits for the read model). */
  async record(terminalId: string, offset: number, bytes: Buffer): Promise<void> {
    const data = { terminalId, offset, length: bytes.length, data: bytes.toString('base64') };
    await this.run(terminalId, 'RecordSshTerminalOutput', data, TERMINAL_SYSTEM, { wait: false });
  }

  views(): SshTerminalView[] {
    return sshTerminalQueries(this.readModels).list();
  }

  view(terminalId: string): SshTerminalView | null {
    return sshTerminalQueries(this.readModels).get(terminalId);
  }
}
