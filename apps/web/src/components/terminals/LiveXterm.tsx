import { useEffect, useRef } from 'react';
import type { ITheme, Terminal } from '@xterm/xterm';
import { live } from '../../live';

/** A page of a terminal's output after an offset: its text or bytes, and where it ended. */
export interface XtermPage {
  data: string | Uint8Array;
  endOffset: number;
  truncated: boolean;
}

/**
 * Where a live xterm's bytes come from (a page read by offset, then frames of new bytes),
 * and, for a typeable one, where its keystrokes and fitted size go.
 */
export interface XtermSource {
  page(afterOffset: number): Promise<XtermPage>;
  subscribe(listener: (offset: number, bytes: Uint8Array) => void): () => void;
  input?(data: string): void;
  resize?(cols: number, rows: number): void;
}

/** ANSI colours that all meet WCAG AA (4.5:1) on the black background, as axe checks. */
const THEME: ITheme = {
  background: '#000000',
  foreground: '#e5e5e5',
  black: '#767676',
  red: '#ff6b6b',
  green: '#0dbc79',
  yellow: '#e5e510',
  blue: '#3b8eea',
  magenta: '#d670d6',
  cyan: '#11a8cd',
  white: '#e5e5e5',
  brightBlack: '#8a8a8a',
  brightRed: '#ff8585',
  brightGreen: '#23d18b',
  brightYellow: '#f5f543',
  brightBlue: '#6aa9f5',
  brightMagenta: '#e58ae5',
  brightCyan: '#29b8db',
  brightWhite: '#ffffff',
};

export function bytesOf(base64: string): Uint8Array {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/**
 * Loads the output so far by offset, then writes frames from where it ended, never twice. A
 * frame past what is shown (bytes missed while the socket was away) and every reconnection
 * load again from there.
 */
function follow(source: XtermSource, term: Terminal): () => void {
  let shown = 0;
  let loading: Promise<void> | null = null;
  let gone = false;
  const early: { offset: number; bytes: Uint8Array }[] = [];
  const write = (offset: number, bytes: Uint8Array) => {
    const end = offset + bytes.length;
    if (end <= shown) return;
    term.write(bytes.subarray(Math.max(0, shown - offset)));
    shown = end;
  };
  const load = () => {
    loading ??= (async () => {
      for (;;) {
        const page = await source.page(shown);
        if (gone) return;
        term.write(page.data);
        shown = Math.max(shown, page.endOffset);
        if (!page.truncated) break;
      }
    })()
      .catch(() => {
        if (!gone) term.write('\r\n[the output so far could not be loaded]\r\n');
      })
      .finally(() => {
        loading = null;
        for (const e of early.splice(0)) {
          if (e.offset > shown) return load();
          write(e.offset, e.bytes);
        }
      });
  };
  const off = source.subscribe((offset, bytes) => {
    if (loading) early.push({ offset, bytes });
    else if (offset > shown) {
      early.push({ offset, bytes });
      load();
    } else write(offset, bytes);
  });
  const offReconnect = live.onReconnect(load);
  load();
  return () => {
    gone = true;
    off();
    offReconnect();
  };
}

/** Fits the terminal to its box and keeps it fitted; the PTY gets each size it takes. */
function fitted(
  term: Terminal,
  host: HTMLElement,
  source: XtermSource,
  FitAddon: typeof import('@xterm/addon-fit').FitAddon,
): () => void {
  const fit = new FitAddon();
  term.loadAddon(fit);
  const resized = term.onResize(({ cols, rows }) => source.resize?.(cols, rows));
  const refit = () => {
    if (host.clientWidth > 0) fit.fit();
  };
  refit();
  source.resize?.(term.cols, term.rows);
  const observer = new ResizeObserver(refit);
  observer.observe(host);
  return () => {
    observer.disconnect();
    resized.dispose();
  };
}

interface Props {
  /** The region's accessible name. */
  label: string;
  source: XtermSource;
  /** A new key starts over (another terminal). */
  sourceKey: string;
  /** The keyboard goes to it once it shows. */
  autoFocus?: boolean;
}

/**
 * A live rendering of a terminal with xterm.js (loaded when first shown, so the rest of the
 * app does not carry it): the output so far read by offset over REST, then the frames from
 * where that ended. With `source.input` it is typeable and fits its box.
 */
export function LiveXterm({ label, source, sourceKey, autoFocus = false }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const sourceRef = useRef(source);
  sourceRef.current = source;
  useEffect(() => {
    const src: XtermSource = {
      page: (after) => sourceRef.current.page(after),
      subscribe: (l) => sourceRef.current.subscribe(l),
      ...(sourceRef.current.input && {
        input: (d: string) => sourceRef.current.input?.(d),
        resize: (c: number, r: number) => sourceRef.current.resize?.(c, r),
      }),
    };
    const stops: (() => void)[] = [];
    let gone = false;
    void Promise.all([import('@xterm/xterm'), import('@xterm/addon-fit')]).then(([x, f]) => {
      if (gone || !host.current) return;
      const { Terminal } = x;
      const typeable = src.input !== undefined;
      const term = new Terminal({
        disableStdin: !typeable,
        rows: 24,
        cols: 100,
        scrollback: 5000,
        theme: THEME,
      });
      term.open(host.current);
      stops.push(() => term.dispose());
      if (typeable) {
        const typed = term.onData((d) => src.input?.(d));
        stops.push(() => typed.dispose());
        stops.push(fitted(term, host.current, src, f.FitAddon));
      }
      stops.push(follow(src, term));
      if (autoFocus) term.focus();
    });
    return () => {
      gone = true;
      for (const stop of stops.reverse()) stop();
    };
    // The terminal is made once per source: a later autoFocus does not make it again.
  }, [sourceKey]);
  return <div className="live-xterm" ref={host} role="region" aria-label={label} />;
}
