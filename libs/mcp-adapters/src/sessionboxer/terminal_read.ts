import { id, int } from '../kit/fields';
import { defineTool } from '../kit/define-tool';

export const TERMINAL_READ_DEFAULT_LINES = 100;
export const TERMINAL_READ_MAX_LINES = 2000;

export const terminalReadInput = {
  id: id('id'),
  lines: int('lines', 1, TERMINAL_READ_MAX_LINES).default(TERMINAL_READ_DEFAULT_LINES),
};

/** The end of one Terminal's retained output. */
export const terminalReadTool = defineTool({
  name: 'terminal_read',
  title: 'Read a Terminal',
  description: [
    "Read the last lines of a Terminal's retained output (what the person would see scrolling",
    'up in the pane) and its exit code. id: a Terminal id from terminal_list or ui_open; lines:',
    `how many lines from the end, 1–${TERMINAL_READ_MAX_LINES} (default`,
    `${TERMINAL_READ_DEFAULT_LINES}). Returns { id, text, exitCode }, exitCode being null while`,
    'the shell still runs.',
  ].join(' '),
  input: terminalReadInput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  route: 'control-plane',
});
