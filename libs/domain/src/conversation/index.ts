export * from './conversation.commands';
export * from './conversation.events';
export * from './conversation.state';
export * from './conversation.decider';
export {
  MESSAGE_MAX_LENGTH,
  MODEL_NAME,
  OUTPUT_BATCH_MAX,
  PROMPT_MAX_LENGTH,
  QUEUE_MAX,
  TOOL_OUTPUT_MAX,
  validPromptText,
} from './conversation.validation';
