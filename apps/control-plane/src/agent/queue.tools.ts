import { Injectable, type OnModuleInit } from '@nestjs/common';
import { queueAddTool, queueListTool } from '@sessionboxer/mcp-adapters';
import { CallHandlers } from '../calls';
import { SessionAgent } from './session-agent.service';

/** The agent's own prompt queue: queue_add asks for a next turn, queue_list shows the queue. */
@Injectable()
export class QueueTools implements OnModuleInit {
  constructor(
    private readonly handlers: CallHandlers,
    private readonly agent: SessionAgent,
  ) {}

  onModuleInit(): void {
    const tools = this.handlers.sessionboxer;
    tools.register(
      queueAddTool,
      async ({ text }, ctx) => {
        // Queued even when the agent is idle: the agent asked for a NEXT turn, not this one.
        const input = { text, from: ctx.actor, key: ctx.key, queue: true };
        const receipt = await this.agent.prompt(ctx.sessionId, input);
        return { id: receipt.promptId, position: receipt.position };
      },
      'agent',
    );
    tools.register(
      queueListTool,
      (_args, ctx) => ({
        prompts: this.agent.queue(ctx.sessionId).map(({ id, text, position, queuedAt, from }) => ({
          id,
          text,
          position,
          queuedAt,
          from,
        })),
      }),
      'agent',
    );
  }
}
