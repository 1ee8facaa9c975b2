import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { DesktopViewEndReason } from '@sessionboxer/domain';

/** Past this many bytes waiting for the browser, the box's side is paused (a slow network). */
const HIGH_WATER = 4 * 1024 * 1024;
const LOW_WATER = 1024 * 1024;

/**
 * RFB both ways, byte for byte: the browser's binary frames to the box's connection, the
 * box's bytes to the browser. The box's side is any byte stream: a session box's connection,
 * or a sandbox box's x11vnc's stdin and stdout (sandboxes/watch). `early` holds what the
 * browser sent before the box's side was there. Resolves with why the view ended once both
 * sides are closed.
 */
export function relayDesktopView(
  browser: WebSocket,
  box: Duplex,
  early: Buffer[],
): Promise<DesktopViewEndReason> {
  return new Promise((resolve) => {
    let reason: DesktopViewEndReason | null = null;
    const end = (why: DesktopViewEndReason, code: number, text: string) => {
      if (reason !== null) return;
      reason = why;
      box.destroy();
      if (browser.readyState === browser.OPEN || browser.readyState === browser.CONNECTING) {
        browser.close(code, text);
      }
      resolve(why);
    };
    for (const chunk of early) box.write(chunk);
    browser.on('message', (data: Buffer, isBinary: boolean) => {
      if (!isBinary) return end('closed', 4400, 'the desktop view takes binary RFB frames only');
      box.write(data);
    });
    browser.on('close', () => end('closed', 1000, 'closed'));
    browser.on('error', () => end('closed', 1011, 'browser error'));
    box.on('data', (chunk: Buffer) => {
      browser.send(chunk, { binary: true }, () => {
        if (box.isPaused() && browser.bufferedAmount < LOW_WATER) box.resume();
      });
      if (browser.bufferedAmount > HIGH_WATER) box.pause();
    });
    box.on('close', () => end('box_gone', 4410, "the box's desktop went away"));
    box.on('error', () => undefined);
    box.resume();
  });
}
