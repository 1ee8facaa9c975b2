export { AgentModule } from './agent.module';
export { SessionAgent } from './session-agent.service';
export { TurnDispatcher } from './turn-dispatcher';
export { HarnessOutputRecorder, type AgentAck } from './harness-output.recorder';
export { ConversationsService } from './conversations.service';
export { sessionConversationId } from './agent-harness';
