import { randomUUID } from 'node:crypto';
import type { TerminalListing, TerminalOutput, TerminalOutputPage } from '@sessionboxer/contracts';
import { Inject, Injectable } from '@nestjs/common';
import {
  DomainError,
  ErrorCode,
  sessionDecider,
  sessionStream,
  type Actor,
} from '@sessionboxer/domain';
import { sessionDetailsQueries, type SqliteReadModelStore } from '@sessionboxer/projections';
import { DaemonChannel } from '../channel/daemon-channel';
import { CommandBus } from '../../infrastructure/command-bus';
import type { EventStore } from '@sessionboxer/event-store';
import { EVENT_STORE, READ_MODELS } from '../../infrastructure/tokens';
import { asciicast } from './asciicast';
import { outputPage } from './output-page';
import { runningBox } from './running-box';

/** The exit code of a Terminal whose box was gone before it could start (a shell's "cannot execute"). */
const NEVER_STARTED = 126;

export type { TerminalListing, TerminalOutput };

/** A batch of a Terminal's output, once recorded: what the live panes show. */
export interface RecordedOutput {
  sessionId: string;
  terminalId: string;
  offset: number;
  data: string;
}

/** Terminals are PTYs the box's daemon runs; the control plane asks for them and records them. */
@Injectable()
export class Terminals {
  /** Each session's last output batch being recorded: the next waits for it. */
  private readonly outputs = new Map<string, Promise<void>>();
  private readonly outputListeners = new Set<(output: RecordedOutput) => void>();

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
  async open(
    sessionId: string,
    terminalId: string,
    command: string[] | null,
    by: Actor = { kind: 'agent', sessionId },
  ): Promise<void> {
    const unavailable = new DomainError(
      ErrorCode.Unavailable,
      'the box is not connected, so no Terminal can be opened in it',
    );
    if (!this.channel.isConnected(sessionId)) throw unavailable;
    await this.bus.execute(sessionDecider, sessionStream(sessionId), {
      type: 'RecordTerminalOpened',
      data: { sessionId, terminalId, command, openedBy: by.kind === 'person' ? 'person' : 'agent' },
      metadata: this.bus.metadata(by, `terminal-opened/${sessionId}/${terminalId}`),
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

  /**
   * A person's own Terminal: a login shell in the session's running box, opened by them.
   * Answers it as the list will show it.
   */
  async openShell(sessionId: string, person: Actor): Promise<TerminalListing> {
    runningBox(this.readModels, this.channel, sessionId, 'open a Terminal in it');
    const terminalId = randomUUID();
    await this.open(sessionId, terminalId, null, person);
    return { id: terminalId, createdAt: new Date().toISOString(), exitCode: null };
  }

  /** Recorded bytes of a Terminal's output after `afterOffset` (the live pane's catch-up). */
  async output(
    sessionId: string,
    terminalId: string,
    afterOffset: number,
    limit: number,
  ): Promise<TerminalOutputPage> {
    this.known(sessionId, terminalId);
    const events = await this.store.readStream(sessionStream(sessionId));
    return outputPage(events, terminalId, afterOffset, limit);
  }

  /** Calls `listener` with every batch of output once it is recorded; returns the unsubscribe. */
  onOutput(listener: (output: RecordedOutput) => void): () => void {
    this.outputListeners.add(listener);
    return () => this.outputListeners.delete(listener);
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
    this.known(sessionId, terminalId);
    // A frozen box keeps its socket but answers nothing: ask only a box that runs.
    runningBox(
      this.readModels,
      this.channel,
      sessionId,
      "read a Terminal's output (it lives in the box)",
    );
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
      // A batch sent again records nothing but is shown again: a pane keeps bytes by offset.
      for (const listener of this.outputListeners) listener({ sessionId, ...frame });
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

  /** The session's Terminal `terminalId` as the read model has it; 404 when it has none. */
  known(sessionId: string, terminalId: string): { exitCode: number | null } {
    const details = sessionDetailsQueries(this.readModels).get(sessionId);
    const terminal = details?.terminals.find((t) => t.id === terminalId);
    if (!terminal) {
      throw new DomainError(
        ErrorCode.NotFound,
        `session ${sessionId} has no Terminal ${terminalId}`,
      );
    }
    return terminal;
  }

  private metadata(sessionId: string, key: string) {
    return this.bus.metadata({ kind: 'agent', sessionId }, key);
  }
}
