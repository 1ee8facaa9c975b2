import type { TerminalListing, TerminalOutput } from '@sessionboxer/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { DomainError, ErrorCode, sessionDecider, sessionStream } from '@sessionboxer/domain';
import { sessionDetailsQueries, type SqliteReadModelStore } from '@sessionboxer/projections';
import { DaemonChannel } from '../channel/daemon-channel';
import { CommandBus } from '../../infrastructure/command-bus';
import type { EventStore } from '@sessionboxer/event-store';
import { EVENT_STORE, READ_MODELS } from '../../infrastructure/tokens';
import { asciicast } from './asciicast';

/** The exit code of a Terminal whose box was gone before it could start (a shell's "cannot execute"). */
const NEVER_STARTED = 126;

export type { TerminalListing, TerminalOutput };

/** Terminals are PTYs the box's daemon runs; the control plane asks for them and records them. */
@Injectable()
export class Terminals {
  /** Each session's last output batch being recorded: the next waits for it. */
  private readonly outputs = new Map<string, Promise<void>>();

  constructor(
    private readonly channel: DaemonChannel,
    private readonly bus: CommandBus,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    @Inject(EVENT_STORE) private readonly store: EventStore,
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

  /** A Terminal's whole recorded output as asciicast v2, from the session's history. */
  async asciicast(sessionId: string, terminalId: string): Promise<string> {
    const cast = asciicast(await this.store.readStream(sessionStream(sessionId)), terminalId);
    if (cast === null) {
      throw new DomainError(
        ErrorCode.NotFound,
        `session ${sessionId} has no Terminal ${terminalId}`,
      );
    }
    return cast;
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

  /**
   * Records a batch of a Terminal's output. A session's batches are recorded one after the
   * other in the order they came, so offsets never race (a later batch first would make the
   * decider take the earlier one for a resend).
   */
  recordOutput(
    sessionId: string,
    frame: { terminalId: string; offset: number; data: string },
  ): Promise<void> {
    const run = async () => {
      await this.bus.execute(sessionDecider, sessionStream(sessionId), {
        type: 'RecordTerminalOutput',
        data: { sessionId, ...frame },
        metadata: this.metadata(sessionId, `terminal-output/${frame.terminalId}/${frame.offset}`),
      });
    };
    const previous = this.outputs.get(sessionId) ?? Promise.resolve();
    const next = previous.then(run, run);
    const tail = next.catch(() => undefined);
    this.outputs.set(sessionId, tail);
    void tail.then(() => {
      if (this.outputs.get(sessionId) === tail) this.outputs.delete(sessionId);
    });
    return next;
  }

  private metadata(sessionId: string, key: string) {
    return this.bus.metadata({ kind: 'agent', sessionId }, key);
  }
}
