import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  isDomainError,
  type Actor,
  Command,
  CommandMetadata,
  Decider,
  DomainEvent,
} from '@sessionboxer/domain';
import { CommandHandler, deterministicUuid, type CommandResult } from '@sessionboxer/event-store';
import type { ProjectionRunner } from '@sessionboxer/projections';
import { Clock, IdGenerator } from './clock';
import { Reactors } from './reactors';
import { PROJECTION_RUNNER } from './tokens';

/**
 * Runs a command through the one pipeline and, by default, waits until the read models show
 * it, so whoever asked reads their own write. With `reactions`, it also waits for the reactors
 * that handle the events it appended (see Reactors.waitForReactionsTo).
 */
@Injectable()
export class CommandBus {
  private readonly logger = new Logger('Commands');

  constructor(
    private readonly handler: CommandHandler,
    @Inject(PROJECTION_RUNNER) private readonly runner: ProjectionRunner,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly reactors: Reactors,
  ) {}

  async execute<C extends Command, E extends DomainEvent, S>(
    decider: Decider<C, E, S>,
    stream: string,
    command: C,
    options: { wait?: boolean; reactions?: boolean } = {},
  ): Promise<CommandResult<S>> {
    const started = performance.now();
    const line = (outcome: string) => ({
      command: command.type,
      stream,
      commandId: command.metadata.commandId,
      correlationId: command.metadata.correlationId ?? command.metadata.commandId,
      outcome,
      ms: Math.round((performance.now() - started) * 10) / 10,
    });
    try {
      const result = await this.run(decider, stream, command, options);
      this.logger.log({ ...line('ok'), events: result.events.length }, `command ${command.type}`);
      return result;
    } catch (e) {
      // A refusal is an answer (logged as its code); anything else is the control plane's fault.
      if (isDomainError(e)) this.logger.log(line(e.code), `command ${command.type} refused`);
      else this.logger.error(line('error'), `command ${command.type} failed`);
      throw e;
    }
  }

  private async run<C extends Command, E extends DomainEvent, S>(
    decider: Decider<C, E, S>,
    stream: string,
    command: C,
    options: { wait?: boolean; reactions?: boolean },
  ): Promise<CommandResult<S>> {
    const result = await this.handler.handle(decider, stream, command);
    if (options.wait !== false && result.position !== null) {
      await this.runner.waitForPosition(result.position);
    }
    if (options.reactions && result.position !== null) {
      const types = result.events.map((e) => e.type);
      await this.reactors.waitForReactionsTo(types, result.position);
    }
    return result;
  }

  /**
   * Metadata for a command. With a `key` (an Idempotency-Key, a box's callId) the command id
   * is derived from it and the actor, so the same request repeated is the same command.
   */
  metadata(actor: Actor, key?: string): CommandMetadata {
    const commandId = key ? deterministicUuid(`${actorKey(actor)}/${key}`) : this.ids.next();
    return { commandId, at: this.clock.now().toISOString(), actor };
  }

  /** Waits for the read models to reach a position (e.g. another command's). */
  waitFor(position: number): Promise<void> {
    return this.runner.waitForPosition(position);
  }
}

export function actorKey(actor: Actor): string {
  switch (actor.kind) {
    case 'person':
      return `person:${actor.id}`;
    case 'agent':
      return `agent:${actor.sessionId}`;
    case 'api-key':
      return `api-key:${actor.keyId}`;
    case 'system':
      return `system:${actor.id}`;
  }
}
