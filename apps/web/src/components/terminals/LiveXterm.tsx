import { useEffect, useRef } from 'react';
import type { Terminal } from '@xterm/xterm';
import type { SshTerminalOutputPage } from '@sessionboxer/contracts';
import { get } from '../../api';
import { onTerminalOutput } from './terminals-store';

function bytesOf(base64: string): Uint8Array {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** Loads the output so far by offset, then writes frames from where it ended, never twice. */
function follow(terminalId: string, term: Terminal): () => void {
  let shown = 0;
  let loaded = false;
  const early: { offset: number; bytes: Uint8Array }[] = [];
  const write = (offset: number, bytes: Uint8Array) => {
    const end = offset + bytes.length;
    if (end <= shown) return;
    term.write(bytes.subarray(Math.max(0, shown - offset)));
    shown = end;
  };
  const off = onTerminalOutput((f) => {
    if (f.terminalId !== terminalId) return;
    const bytes = bytesOf(f.data);
    if (loaded) write(f.offset, bytes);
    else early.push({ offset: f.offset, bytes });
  });
  const load = async () => {
    for (;;) {
      const url = `/api/terminals/${encodeURIComponent(terminalId)}/output?afterOffset=${shown}&limit=1048576`;
      const page = await get<SshTerminalOutputPage>(url);
      term.write(page.data);
      shown = page.endOffset;
      if (!page.truncated) break;
    }
  };
  load()
    .catch(() => term.write('\r\n[the output is not live in this control plane]\r\n'))
    .finally(() => {
      loaded = true;
      for (const e of early) write(e.offset, e.bytes);
    });
  return off;
}

/**
 * A live rendering of one SSH terminal with xterm.js (loaded when first shown, so the rest
 * of the app does not carry it): the output so far read by offset over REST, then the
 * `terminal.output` frames from where that ended.
 */
export function LiveXterm({ terminalId }: { terminalId: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let stop = () => undefined as void;
    let gone = false;
    void import('@xterm/xterm').then(({ Terminal }) => {
      if (gone || !host.current) return;
      const term = new Terminal({ disableStdin: true, rows: 24, cols: 100, scrollback: 5000 });
      term.open(host.current);
      const off = follow(terminalId, term);
      stop = () => {
        off();
        term.dispose();
      };
    });
    return () => {
      gone = true;
      stop();
    };
  }, [terminalId]);
  return (
    <div
      className="live-xterm"
      ref={host}
      role="region"
      aria-label={`Output of terminal ${terminalId}`}
    />
  );
}
