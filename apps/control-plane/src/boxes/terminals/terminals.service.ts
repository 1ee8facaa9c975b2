import type { TerminalListing, TerminalOutput } from '@sessionboxer/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { DomainError, ErrorCode, sessionDecider, sessionStream } from '@sessionboxer/domain';
import { sessionDetailsQueries, type SqliteReadModelStore } from '@sessionboxer/projections';
import { DaemonChannel } from '../channel/daemon-channel';
import { CommandBus } from '../../infrastructure/command-bus';
import { READ_MODELS } from '../../infrastructure/tokens';

/** The exit code of a Terminal whose box was gone before it could start (a shell's "cannot execute"). */
const NEVER_STARTED = 126;

export type { TerminalListing, TerminalOutput };

/** Terminals are PTYs the box's daemon runs; the control plane asks for them and records them. */
@Injectable()
export class Terminals {
  constructor(
    private readonly channel: DaemonChannel,
    private readonly bus: CommandBus,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
  ) {}

  /**
   * Records a Terminal running argv as opened by the agent, then asks the daemon to open it:
   * in that order, because the gateway takes the box's report of an opening only for a
   * Terminal the control plane asked for.
   */
  async open(sessionId: string, terminalId: string, command: string[]): Promise<void> {
    const unavailable = new DomainError(
      ErrorCode.Unavailable,
      'the box is not connected, so no Terminal can be opened in it',
    );
    if (!this.channel.isConnected(sessionId)) throw unavailable;
    await this.bus.execute(sessionDecider, sessionStream(sessionId), {
      type: 'RecordTerminalOpened',
      data: { sessionId, terminalId, command, openedBy: 'agent' },
      metadata: this.metadata(sessionId, `terminal-opened/${sessionId}/${terminalId}`),
    });
    if (this.channel.push(sessionId, 'terminal.open', { terminalId, command })) return;
    // The box went away in between: the Terminal never ran, so it is not listed as running.
    await this.bus.execute(sessionDecider, sessionStream(sessionId), {
      type: 'RecordTerminalExited',
      data: { sessionId, terminalId, exitCode: NEVER_STARTED },
      metadata: this.metadata(sessionId, `terminal-exited/${sessionId}/${terminalId}`),
    });
    throw unavailable;
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

  private metadata(sessionId: string, key: string) {
    return this.bus.metadata({ kind: 'agent', sessionId }, key);
  }
}
