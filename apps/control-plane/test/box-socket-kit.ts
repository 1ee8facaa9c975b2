import type { EventStore } from '@sessionboxer/event-store';
import WebSocket from 'ws';
import { boxPaths } from '../src/boxes/lifecycle/box-paths';
import { EVENT_STORE } from '../src/infrastructure/tokens';
import type { RunningApp } from './harness';

export interface Frame {
  event: string;
  data: any;
}

/** A client speaking on a box's own Unix socket, exactly where (and as) its daemon does. */
export interface BoxSocket {
  ws: WebSocket;
  /** Every frame the gateway sent, in order. */
  frames: Frame[];
  send(event: string, data: unknown): void;
  /** Anything at all: text that may not be JSON, or bytes. */
  sendRaw(payload: string | Buffer): void;
  /** The first frame from now on that `match` takes, or null after `ms`. */
  next(match: (f: Frame) => boolean, ms?: number): Promise<Frame | null>;
  close(): Promise<void>;
}

/**
 * Connects to the session's box socket. Stop the session first: its daemon, frozen, cannot
 * reconnect and take the socket back (one daemon per box) while a test speaks on it.
 */
export async function boxSocket(api: RunningApp, sessionId: string): Promise<BoxSocket> {
  const ws = new WebSocket(`ws+unix://${boxPaths(api.dataDir, sessionId).socket}:/box`);
  const frames: Frame[] = [];
  const waiting = new Set<(f: Frame) => void>();
  ws.on('message', (m) => {
    const frame = JSON.parse((m as Buffer).toString()) as Frame;
    frames.push(frame);
    for (const w of [...waiting]) w(frame);
  });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  return {
    ws,
    frames,
    send: (event, data) => ws.send(JSON.stringify({ event, data })),
    sendRaw: (payload) => ws.send(payload),
    next: (match, ms = 5_000) =>
      new Promise((resolve) => {
        const done = (f: Frame | null) => {
          clearTimeout(timer);
          waiting.delete(take);
          resolve(f);
        };
        const take = (f: Frame) => match(f) && done(f);
        const timer = setTimeout(() => done(null), ms);
        waiting.add(take);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        if (ws.readyState === WebSocket.CLOSED) return resolve();
        ws.once('close', () => resolve());
        ws.close();
      }),
  };
}

/** The position of the newest event: unchanged means nothing was recorded. */
export function head(api: RunningApp): Promise<number> {
  return api.app.get<EventStore>(EVENT_STORE).headPosition();
}

/** Waits until no event has been appended for `quietMs` (a connection's own bookkeeping). */
export async function settled(api: RunningApp, quietMs = 300): Promise<number> {
  let last = await head(api);
  for (;;) {
    await new Promise((r) => setTimeout(r, quietMs));
    const now = await head(api);
    if (now === last) return now;
    last = now;
  }
}
