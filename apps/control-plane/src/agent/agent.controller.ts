import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@sessionboxer/domain';
import { conversationEventQueries, type SqliteReadModelStore } from '@sessionboxer/projections';
import { Inject } from '@nestjs/common';
import { AfterQueryDto } from '../common/paging.dto';
import { IdempotencyKey, RequestActor } from '../auth';
import { READ_MODELS } from '../infrastructure/tokens';
import { sessionConversationId } from './agent-harness';
import type { PromptReceipt } from './conversations.service';
import { EditQueuedPromptDto, SendPromptDto } from './dto/prompt.dto';
import { SessionAgent, type QueuedPromptView } from './session-agent.service';

const idempotencyHeader = {
  name: 'Idempotency-Key',
  required: false,
  description: 'Repeating a request with the same key returns its first result and changes nothing',
};

/** A session's agent for people: send a prompt, interrupt, read and edit the queue. */
@ApiTags('agent')
@Controller('api/sessions/:id')
export class AgentController {
  constructor(
    private readonly agent: SessionAgent,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
  ) {}

  @Post('prompts')
  @HttpCode(202)
  @ApiOperation({
    summary: "Send a prompt to the session's agent: it runs now, or waits in the queue",
  })
  @ApiHeader(idempotencyHeader)
  prompt(
    @Param('id') id: string,
    @Body() dto: SendPromptDto,
    @RequestActor() actor: Actor,
    @IdempotencyKey() key?: string,
  ): Promise<PromptReceipt> {
    return this.agent.prompt(id, { text: dto.text, model: dto.model ?? null, from: actor, key });
  }

  @Post('interrupt')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Interrupt the running turn (it ends as interrupted); the queue goes on',
  })
  @ApiHeader(idempotencyHeader)
  interrupt(@Param('id') id: string, @RequestActor() actor: Actor, @IdempotencyKey() key?: string) {
    return this.agent.interrupt(id, actor, key);
  }

  @Get('queue')
  @ApiOperation({ summary: 'The prompts waiting for the agent, in the order they will run' })
  queue(@Param('id') id: string): QueuedPromptView[] {
    return this.agent.queue(id);
  }

  @Patch('queue/:promptId')
  @ApiOperation({ summary: 'Change a queued prompt before it runs' })
  edit(
    @Param('id') id: string,
    @Param('promptId') promptId: string,
    @Body() dto: EditQueuedPromptDto,
    @RequestActor() actor: Actor,
  ): Promise<QueuedPromptView[]> {
    return this.agent.editQueued(id, promptId, dto.text, actor);
  }

  @Delete('queue/:promptId')
  @ApiOperation({ summary: 'Drop a queued prompt before it runs' })
  drop(
    @Param('id') id: string,
    @Param('promptId') promptId: string,
    @RequestActor() actor: Actor,
  ): Promise<QueuedPromptView[]> {
    return this.agent.dropQueued(id, promptId, actor);
  }

  @Get('conversation')
  @ApiOperation({
    summary:
      "The agent's conversation: its status and its events after a seq, in the sandbox spec's shape",
  })
  conversation(@Param('id') id: string, @Query() q: AfterQueryDto) {
    const doc = this.agent.conversation(id);
    const page = conversationEventQueries(this.readModels).page(sessionConversationId(id), {
      afterSeq: Math.max(0, q.after ?? 0),
      limit: q.limit,
    });
    return { conversation: doc, ...page };
  }
}
