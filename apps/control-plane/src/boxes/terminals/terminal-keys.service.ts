import { Inject, Injectable } from '@nestjs/common';
import {
  DomainError,
  ErrorCode,
  sessionDecider,
  sessionStream,
  type Actor,
} from '@sessionboxer/domain';
import type { SqliteReadModelStore } from '@sessionboxer/projections';
import { DaemonChannel } from '../channel/daemon-channel';
import { CommandBus } from '../../infrastructure/command-bus';
import { READ_MODELS } from '../../infrastructure/tokens';
import { runningBox } from './running-box';
import { Terminals } from './terminals.service';

/** Past this many (person, Terminal) pairs remembered as recorded, the memory starts again. */
const TYPISTS_MAX = 10_000;

/**
 * A person's keystrokes and pane size for a running box Terminal, sent to the box's daemon
 * (which writes them to the PTY). The first keystroke of each person in a Terminal is recorded
 * (TerminalTypedInto: who and when, never what); an exited Terminal or a box that does not run
 * refuses with why, and nothing reaches the box.
 */
@Injectable()
export class TerminalKeys {
  private readonly typists = new Set<string>();

  constructor(
    private readonly terminals: Terminals,
    private readonly channel: DaemonChannel,
    private readonly bus: CommandBus,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
  ) {}

  async input(sessionId: string, terminalId: string, data: string, person: Actor): Promise<void> {
    this.running(sessionId, terminalId, 'type into its Terminals');
    const typist = JSON.stringify([person, sessionId, terminalId]);
    if (!this.typists.has(typist)) {
      await this.bus.execute(sessionDecider, sessionStream(sessionId), {
        type: 'RecordTerminalTyped',
        data: { sessionId, terminalId },
        metadata: this.bus.metadata(person),
      });
      if (this.typists.size >= TYPISTS_MAX) this.typists.clear();
      this.typists.add(typist);
    }
    this.send(sessionId, 'terminal.input', { terminalId, data });
  }

  resize(sessionId: string, terminalId: string, cols: number, rows: number): void {
    this.running(sessionId, terminalId, 'resize its Terminals');
    this.send(sessionId, 'terminal.resize', { terminalId, cols, rows });
  }

  private running(sessionId: string, terminalId: string, toDo: string): void {
    const { exitCode } = this.terminals.known(sessionId, terminalId);
    if (exitCode !== null) {
      throw new DomainError(
        ErrorCode.InvalidState,
        `Terminal ${terminalId} has exited (exit code ${exitCode}): it takes no more input (open a new terminal)`,
        { sessionId, terminalId, exitCode },
      );
    }
    runningBox(this.readModels, this.channel, sessionId, toDo);
  }

  private send(sessionId: string, event: string, data: object): void {
    if (this.channel.push(sessionId, event, data)) return;
    throw new DomainError(
      ErrorCode.Unavailable,
      `the box of session ${sessionId} went away: nothing was sent to its Terminal`,
    );
  }
}
