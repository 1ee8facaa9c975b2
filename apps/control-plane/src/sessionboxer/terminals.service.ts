import { Injectable } from '@nestjs/common';
import { DomainError, ErrorCode, sessionDecider, sessionStream } from '@sessionboxer/domain';
import { DaemonChannel } from '../box-gateway/daemon-channel';
import { CommandBus } from '../infrastructure/command-bus';

/** Terminals are PTYs the box's daemon runs; the control plane asks for them and records them. */
@Injectable()
export class Terminals {
  constructor(
    private readonly channel: DaemonChannel,
    private readonly bus: CommandBus,
  ) {}

  /** Asks the daemon to open a Terminal running argv, and records it as opened by the agent. */
  async open(sessionId: string, terminalId: string, command: string[]): Promise<void> {
    if (!this.channel.push(sessionId, 'terminal.open', { terminalId, command })) {
      throw new DomainError(
        ErrorCode.Unavailable,
        'the box is not connected, so no Terminal can be opened in it',
      );
    }
    // The daemon reports the same opening too; the decider takes a known id as a no-op.
    await this.bus.execute(sessionDecider, sessionStream(sessionId), {
      type: 'RecordTerminalOpened',
      data: { sessionId, terminalId, command, openedBy: 'agent' },
      metadata: this.bus.metadata(
        { kind: 'agent', sessionId },
        `terminal-opened/${sessionId}/${terminalId}`,
      ),
    });
  }
}
