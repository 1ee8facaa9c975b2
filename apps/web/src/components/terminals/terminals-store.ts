import { useSyncExternalStore } from 'react';
import type { SshTerminalOutputFrame, SshTerminalView } from '@sessionboxer/contracts';
import { get } from '../../api';

/**
 * The SSH terminals the page knows: loaded once over REST, then replaced by every
 * `terminals` frame; `terminal.output` frames go to the live xterm views that listen.
 */
let terminals: SshTerminalView[] = [];
const listeners = new Set<() => void>();
const outputListeners = new Set<(frame: SshTerminalOutputFrame) => void>();

function set(next: SshTerminalView[]): void {
  terminals = next;
  for (const l of listeners) l();
}

export function applyTerminalsFrame(list: SshTerminalView[]): void {
  set(list);
}

export function applyTerminalOutputFrame(frame: SshTerminalOutputFrame): void {
  for (const l of outputListeners) l(frame);
}

export async function loadTerminals(): Promise<void> {
  set(await get<SshTerminalView[]>('/api/terminals'));
}

export function onTerminalOutput(l: (frame: SshTerminalOutputFrame) => void): () => void {
  outputListeners.add(l);
  return () => outputListeners.delete(l);
}

export function useTerminals(): SshTerminalView[] {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => terminals,
  );
}
