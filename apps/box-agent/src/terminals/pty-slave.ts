import { closeSync, constants, openSync } from 'node:fs';
import type * as pty from 'node-pty';

/**
 * Opens the PTY's slave side and keeps it open until the child has exited. Without this, Linux
 * hangs the PTY up the moment the child's session ends and the output still unread on the
 * master is lost: a fast command's last lines (often the summary) would be missing. node-pty
 * then closes the master within 200 ms of the exit, after it has read what was left.
 */
export function holdSlave(child: pty.IPty): number | null {
  const name = (child as pty.IPty & { ptsName?: unknown }).ptsName;
  if (typeof name !== 'string') return null;
  try {
    return openSync(name, constants.O_RDWR | constants.O_NOCTTY);
  } catch {
    return null;
  }
}

export function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed: nothing is held any more, which is all that matters
  }
}
