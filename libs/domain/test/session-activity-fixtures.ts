import type {
  Notify,
  NotificationSent,
  NotificationSource,
  PaneRequested,
  RecordTerminalExited,
  RecordTerminalOpened,
  ReportTerminalOpened,
  RequestPane,
  RevertToSnapshot,
  SessionPane,
  SessionReverted,
  SnapshotTaken,
  TakeSnapshot,
  TerminalExited,
  TerminalOpened,
  TerminalOpener,
} from '../src';
import { AT, meta } from './session-fixtures';

/** Builders for the session's snapshot, notification, terminal and pane commands and events. */
type SnapshotData = Pick<TakeSnapshot['data'], 'sizeBytes' | 'conversationPosition'>;
const SNAPSHOT: SnapshotData = { sizeBytes: 1024, conversationPosition: 7 };

export function takeSnapshot(
  sessionId: string,
  snapshotId: string,
  data: Partial<SnapshotData> = {},
  at = AT,
): TakeSnapshot {
  const full = { sessionId, snapshotId, ...SNAPSHOT, ...data };
  return { type: 'TakeSnapshot', data: full, metadata: meta({ at }) };
}

export function snapshotTaken(
  sessionId: string,
  snapshotId: string,
  ordinal: number,
  data: Partial<SnapshotData> = {},
  at = AT,
): SnapshotTaken {
  return {
    type: 'SnapshotTaken',
    data: { sessionId, snapshotId, ordinal, ...SNAPSHOT, ...data, at },
  };
}

export function revertToSnapshot(sessionId: string, snapshotId: string, at = AT): RevertToSnapshot {
  return { type: 'RevertToSnapshot', data: { sessionId, snapshotId }, metadata: meta({ at }) };
}

export function sessionReverted(
  sessionId: string,
  snapshotId: string,
  ordinal: number,
  at = AT,
): SessionReverted {
  return { type: 'SessionReverted', data: { sessionId, snapshotId, ordinal, at } };
}

export function notify(
  sessionId: string,
  notificationId: string,
  text: string,
  source: NotificationSource = 'agent',
  at = AT,
): Notify {
  const data = { sessionId, notificationId, text, source };
  return { type: 'Notify', data, metadata: meta({ at }) };
}

export function notificationSent(
  sessionId: string,
  notificationId: string,
  text: string,
  source: NotificationSource = 'agent',
  at = AT,
): NotificationSent {
  return { type: 'NotificationSent', data: { sessionId, notificationId, text, source, at } };
}

export function openTerminal(
  sessionId: string,
  terminalId: string,
  command: string[] | null = null,
  openedBy: TerminalOpener = 'agent',
  at = AT,
): RecordTerminalOpened {
  const data = { sessionId, terminalId, command, openedBy };
  return { type: 'RecordTerminalOpened', data, metadata: meta({ at }) };
}

export function terminalOpened(
  sessionId: string,
  terminalId: string,
  command: string[] | null = null,
  openedBy: TerminalOpener = 'agent',
  at = AT,
): TerminalOpened {
  return { type: 'TerminalOpened', data: { sessionId, terminalId, command, openedBy, at } };
}

export function reportTerminal(sessionId: string, terminalId: string): ReportTerminalOpened {
  return { type: 'ReportTerminalOpened', data: { sessionId, terminalId }, metadata: meta() };
}

export function exitTerminal(
  sessionId: string,
  terminalId: string,
  exitCode: number,
  at = AT,
): RecordTerminalExited {
  const data = { sessionId, terminalId, exitCode };
  return { type: 'RecordTerminalExited', data, metadata: meta({ at }) };
}

export function terminalExited(
  sessionId: string,
  terminalId: string,
  exitCode: number,
  at = AT,
): TerminalExited {
  return { type: 'TerminalExited', data: { sessionId, terminalId, exitCode, at } };
}

type PaneFields = Omit<RequestPane['data'], 'sessionId' | 'pane'>;
const PANE: PaneFields = { shown: true, terminalId: null, command: null };

export function requestPane(
  sessionId: string,
  pane: SessionPane,
  fields: Partial<PaneFields> = {},
  at = AT,
): RequestPane {
  const data = { sessionId, pane, ...PANE, ...fields };
  return { type: 'RequestPane', data, metadata: meta({ at }) };
}

export function paneRequested(
  sessionId: string,
  pane: SessionPane,
  fields: Partial<PaneFields> = {},
  at = AT,
): PaneRequested {
  return { type: 'PaneRequested', data: { sessionId, pane, ...PANE, ...fields, at } };
}
