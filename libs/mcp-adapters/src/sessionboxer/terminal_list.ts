import { defineTool } from '../kit/define-tool';

export const terminalListInput = {};

/** The Terminals of the calling session. */
export const terminalListTool = defineTool({
  name: 'terminal_list',
  title: 'List Terminals',
  description: [
    "Returns this session's Terminals as an array of { id, createdAt, exitCode }: the ones the",
    'person opened and the ones ui_open opened for you. exitCode is null while the shell still',
    'runs. Read one with terminal_read.',
  ].join(' '),
  input: terminalListInput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  route: 'control-plane',
});
