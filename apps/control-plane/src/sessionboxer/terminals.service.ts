import { Inject, Injectable } from '@nestjs/common';
import { DomainError, ErrorCode, sessionDecider, sessionStream } from '@sessionboxer/domain';
import { sessionDetailsQueries, type SqliteReadModelStore } from '@sessionboxer/projections';
import { DaemonChannel } from '../box-gateway/daemon-channel';
import { CommandBus } from '../infrastructure/command-bus';
import { READ_MODELS } from '../infrastructure/tokens';

/** A Terminal as the web UI lists it; `command` is its argv, absent for a login shell. */
export interface TerminalListing {
  id: string;
  createdAt: string;
  /** null while it still runs. */
  exitCode: number | null;
  command?: string[];
}

/** A Terminal's retained output, read from the box. */
export interface TerminalOutput {
  id: string;
  text: string;
  exitCode: number | null;
}

/** Terminals are PTYs the box's daemon runs; the control plane asks for them and records them. */
@Injectable()
export class Terminals {
  constructor(
    private readonly channel: DaemonChannel,
    private readonly bus: CommandBus,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
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

  /** Every Terminal the session's box opened, oldest first, exited ones too (the read model). */
  list(sessionId: string): TerminalListing[] {
    const terminals = sessionDetailsQueries(this.readModels).get(sessionId)?.terminals ?? [];
    return terminals.map(({ id, createdAt, exitCode, command }) => ({
      id,
      createdAt,
      exitCode,
      ...(command ? { command } : {}),
    }));
  }

  /** The last `lines` lines of a Terminal's output; the output lives in the box, so it must run. */
  async read(sessionId: string, terminalId: string, lines: number): Promise<TerminalOutput> {
    const details = sessionDetailsQueries(this.readModels).get(sessionId);
    if (!details?.terminals.some((t) => t.id === terminalId)) {
      throw new DomainError(
        ErrorCode.NotFound,
        `session ${sessionId} has no Terminal ${terminalId}`,
      );
    }
    // A frozen box keeps its socket but answers nothing: ask only a box that runs.
    const status = details.box?.status ?? 'absent';
    if (status !== 'ready' || !this.channel.isConnected(sessionId)) {
      throw new DomainError(
        ErrorCode.InvalidState,
        `the box of session ${sessionId} is not running (${status === 'ready' ? 'not connected' : status}), and a Terminal's output lives in the box: resume the session to read it`,
        { boxStatus: status },
      );
    }
    return this.channel.request<TerminalOutput>(sessionId, 'terminal.read', {
      terminalId,
      lines,
    });
  }
}
