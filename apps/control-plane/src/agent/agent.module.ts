import { Module } from '@nestjs/common';
import { BoxesModule } from '../boxes';
import { ProviderRelayModule } from '../provider-relay';
import { SettingsModule } from '../settings';
import { AgentController } from './agent.controller';
import { BoxGoneReactor } from './box-gone.reactor';
import { ConversationsService } from './conversations.service';
import { HarnessOutputRecorder } from './harness-output.recorder';
import { QueueTools } from './queue.tools';
import { SessionAgent } from './session-agent.service';
import { TurnDispatcher } from './turn-dispatcher';

/** A session's agent: its conversation, prompts and queue, and the turns its box runs. */
@Module({
  imports: [BoxesModule, SettingsModule, ProviderRelayModule],
  controllers: [AgentController],
  providers: [
    ConversationsService,
    TurnDispatcher,
    HarnessOutputRecorder,
    SessionAgent,
    BoxGoneReactor,
    QueueTools,
  ],
  exports: [SessionAgent, TurnDispatcher, HarnessOutputRecorder, ConversationsService],
})
export class AgentModule {}
