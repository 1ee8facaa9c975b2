import { argv, bool, exactId, integer, invalid, oneOf, text } from '../kernel/validation';
import {
  NOTIFICATION_SOURCES,
  SESSION_PANES,
  TERMINAL_OPENERS,
  type NotificationSource,
  type SessionPane,
  type TerminalOpener,
} from './session.commands';

export const NOTIFICATION_MAX_LENGTH = 500;
export const PANE_COMMAND_MAX_LENGTH = 1000;
/** Linux exit statuses are 0–255, but a driver may report a raw or signed wait status. */
const EXIT_CODE_MIN = -(2 ** 31);
const EXIT_CODE_MAX = 2 ** 32 - 1;

export function validSizeBytes(value: unknown): number {
  return integer(value, 'sizeBytes', 0, Number.MAX_SAFE_INTEGER);
}

export function validConversationPosition(value: unknown): number | null {
  if (value === null) return null;
  return integer(value, 'conversationPosition', 0, Number.MAX_SAFE_INTEGER);
}

/** One line, as a push notification and the bell show it. */
export function validNotificationText(value: unknown): string {
  return text(value, 'text', NOTIFICATION_MAX_LENGTH);
}

export function validSource(value: unknown): NotificationSource {
  return oneOf(value, 'source', NOTIFICATION_SOURCES);
}

export function validOpener(value: unknown): TerminalOpener {
  return oneOf(value, 'openedBy', TERMINAL_OPENERS);
}

/** A Terminal's argv, or null for a plain shell. */
export function validArgv(value: unknown): string[] | null {
  return value === null ? null : argv(value, 'command');
}

export function validExitCode(value: unknown): number {
  return integer(value, 'exitCode', EXIT_CODE_MIN, EXIT_CODE_MAX);
}

export interface PaneRequest {
  pane: SessionPane;
  shown: boolean;
  terminalId: string | null;
  command: string | null;
}

/** A Terminal (and the command it runs) only goes with the terminal pane. */
export function validPaneRequest(data: Record<keyof PaneRequest, unknown>): PaneRequest {
  const pane = oneOf(data.pane, 'pane', SESSION_PANES);
  const shown = bool(data.shown, 'shown');
  const terminalId = data.terminalId === null ? null : exactId(data.terminalId, 'terminalId');
  const command =
    data.command === null ? null : text(data.command, 'command', PANE_COMMAND_MAX_LENGTH);
  if (pane !== 'terminal' && (terminalId !== null || command !== null)) {
    throw invalid('pane', `a terminalId or command goes with the terminal pane, not ${pane}`);
  }
  if (command !== null && terminalId === null) {
    throw invalid('terminalId', 'a command runs in a Terminal: record it opened, then name it');
  }
  return { pane, shown, terminalId, command };
}
