import { PANE_COMMAND_MAX_LENGTH } from '@sessionboxer/domain';
import { SESSION_PANES } from '@sessionboxer/domain';
import { z } from 'zod';
import { strictObject } from '../kit/strict-input';
import { oneOf, text } from '../kit/fields';
import type { UiPane } from './port';
import { defineTool } from '../kit/define-tool';
import type { ArgIssue } from '../kit/tool';

/** The domain's panes, as the tuple zod's enum needs. */
export const UI_PANES = SESSION_PANES as readonly [UiPane, ...UiPane[]];

/** What the domain takes for a pane's command: refused here already, with the same limit. */
export const COMMAND_MAX = PANE_COMMAND_MAX_LENGTH;

export const uiOpenInput = {
  pane: oneOf('pane', UI_PANES),
  terminal: strictObject(
    { command: text('terminal.command', COMMAND_MAX) },
    'terminal must be an object { command }',
  ).optional(),
};

type UiOpenArgs = z.infer<z.ZodObject<typeof uiOpenInput>>;

function checkTerminal({ pane, terminal }: UiOpenArgs): ArgIssue[] {
  if (terminal === undefined || pane === 'terminal') return [];
  const message = `terminal.command only goes with pane "terminal" (pane is "${pane}")`;
  return [{ field: 'terminal', message }];
}

/** Asks the person's browser to show a pane of the calling session. */
export const uiOpenTool = defineTool({
  name: 'ui_open',
  title: 'Show a pane to the person',
  description: [
    `Ask the person's browser to show a pane of this session: pane is one of ${UI_PANES.join(', ')}.`,
    'Honoured only when they are looking at this session and not typing; otherwise ignored, so',
    'you cannot pull them away from another session or interrupt a message. With pane',
    `"terminal" and terminal: { command } (1–${COMMAND_MAX} characters), a new Terminal opens and`,
    'runs the command where they can watch it (a dev server, a test run); terminal is refused',
    'with any other pane. Returns { pane, terminalId, shown }: shown says whether a browser had',
    'the session open to receive it; read the Terminal back with terminal_read(terminalId).',
  ].join(' '),
  input: uiOpenInput,
  // Not destructive: the command runs in this session's own box, where the agent already runs
  // commands; the pane only lets the person watch it.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  route: 'control-plane',
  check: checkTerminal,
});
