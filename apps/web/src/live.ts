import type { PaneFrame, UiClientFrame, UiServerFrame } from '@sessionboxer/contracts';
import { api } from './api';
import {
  applyTerminalOutputFrame,
  applyTerminalsFrame,
} from './components/terminals/terminals-store';
import { getState, setState } from './store';
import {
  addNotification,
  appendEntries,
  applySessionFrame,
  openPane,
  paneOfRequest,
} from './view-state';
import { applyInboxFrame } from './components/inbox/inbox-store';
import {
  applySessionTerminalOutput,
  applyTerminalRefusal,
} from './components/terminals/session-terminal-frames';

const BACKOFF_MIN_MS = 500;
const BACKOFF_MAX_MS = 10_000;

function socketUrl(): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/api/ui`;
}

/** An agent's ui_open: the pane it names, on the Terminal it started (if any). */
function applyPaneFrame({ sessionId, pane, terminalId }: PaneFrame): void {
  const tab = paneOfRequest(pane);
  if (tab) openPane(sessionId, tab, terminalId ? { terminalId } : {});
}

/** A frame of the control plane, typed by the contracts' map of what it sends. */
function apply(frame: UiServerFrame): void {
  switch (frame.event) {
    case 'sidebar':
      setState({ sidebar: frame.data.nodes });
      return;
    case 'transcript':
      appendEntries(frame.data.sessionId, frame.data.entries);
      return;
    case 'session':
      applySessionFrame(frame.data.sessionId, frame.data);
      return;
    case 'pane':
      applyPaneFrame(frame.data);
      return;
    case 'notification':
      addNotification(frame.data);
      return;
    case 'error':
      if (applyTerminalRefusal(frame.data)) return;
      console.warn(`the control plane refused a frame: ${frame.data.message ?? 'no reason given'}`);
      return;
    case 'watching':
      return;
    case 'terminals':
      applyTerminalsFrame(frame.data);
      return;
    case 'terminal.output':
      applyTerminalOutputFrame(frame.data);
      return;
    case 'session.terminal.output':
      applySessionTerminalOutput(frame.data);
      return;
    case 'inbox':
      applyInboxFrame(frame.data);
      return;
    default:
      // A frame of a newer control plane: nothing to do with it.
      return;
  }
}

/**
 * The `/api/ui` socket. It reconnects with a growing delay, and on every (re)connection says
 * again which session the page watches and the last transcript position it has, so the feed
 * continues from there: nothing is lost and nothing comes twice.
 */
class LiveClient {
  private socket: WebSocket | null = null;
  private running = false;
  private delay = BACKOFF_MIN_MS;
  private timer: number | undefined;
  private watching: string | null = null;
  private typingNow = false;
  private everOpened = false;
  private readonly reconnectListeners = new Set<() => void>();

  start(): void {
    if (this.running) return;
    this.running = true;
    this.connect();
  }

  stop(): void {
    this.running = false;
    window.clearTimeout(this.timer);
    this.socket?.close();
    this.socket = null;
    setState({ connected: false });
  }

  /**
   * Calls `listener` each time the socket opens again after it was lost (the server is back):
   * what the page loaded over REST while it was gone needs loading again.
   */
  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }

  /** Watches a session (null: none) from the view's last transcript position. */
  watch(sessionId: string | null): void {
    this.watching = sessionId;
    this.typingNow = false;
    this.sendWatch();
  }

  typing(typing: boolean): void {
    if (typing === this.typingNow) return;
    this.typingNow = typing;
    this.send({ event: 'typing', data: { typing } });
  }

  private sendWatch(): void {
    const view = getState().view;
    // An empty transcript has no position yet: from the start (-1), never from "now", so an
    // entry written between the REST load and this watch is not skipped (duplicates are not
    // kept: appendEntries takes only positions after the last one).
    const after = view && view.sessionId === this.watching ? (view.after ?? -1) : undefined;
    const data =
      after === undefined ? { sessionId: this.watching } : { sessionId: this.watching, after };
    this.send({ event: 'watch', data });
  }

  /** Sends a frame now if the socket is open (a box Terminal's keys: lost ones are not resent). */
  send(frame: UiClientFrame): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(frame));
  }

  private connect(): void {
    const socket = new WebSocket(socketUrl());
    this.socket = socket;
    let opened = false;
    socket.onopen = () => {
      opened = true;
      this.delay = BACKOFF_MIN_MS;
      setState({ connected: true });
      if (this.watching !== null) this.sendWatch();
      if (this.typingNow) this.send({ event: 'typing', data: { typing: true } });
      if (this.everOpened) for (const listener of this.reconnectListeners) listener();
      this.everOpened = true;
    };
    socket.onmessage = (message: MessageEvent<string>) => {
      try {
        apply(JSON.parse(message.data) as UiServerFrame);
      } catch (e) {
        console.warn('a frame the page could not read', e);
      }
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      setState({ connected: false });
      if (!this.running) return;
      // A refused upgrade looks like any other failure: ask whether we are still signed in.
      if (!opened) void api('GET', '/api/auth/me').catch(() => undefined);
      this.timer = window.setTimeout(() => this.running && this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, BACKOFF_MAX_MS);
    };
  }
}

export const live = new LiveClient();
