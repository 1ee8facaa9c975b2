import { useEffect, useRef, useState } from 'react';
import { closedText, desktopViewUrl } from './desktop-socket';

type Status = { kind: 'connecting' } | { kind: 'live' } | { kind: 'closed'; text: string };

/**
 * The box's desktop, live: noVNC over the control plane's relay to the box's x11vnc. Watching
 * only by default; "Take control" opens a new view whose keys and clicks reach the box (the
 * box's x11vnc refuses input on a view without control, whatever the page sends).
 */
export function DesktopPane({ sessionId }: { sessionId: string }) {
  const screen = useRef<HTMLDivElement>(null);
  const [control, setControl] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [status, setStatus] = useState<Status>({ kind: 'connecting' });

  useEffect(() => {
    const target = screen.current;
    if (!target) return;
    let ended = false;
    let rfb: { disconnect(): void } | null = null;
    setStatus({ kind: 'connecting' });
    let socket: WebSocket | null = null;
    // noVNC first, then the socket in the same task: a byte arriving before noVNC listens
    // would be lost (the box speaks first in RFB).
    void import('@novnc/novnc').then(({ default: RFB }) => {
      if (ended) return;
      socket = new WebSocket(desktopViewUrl(sessionId, control));
      socket.addEventListener('close', (e) => {
        if (!ended) setStatus({ kind: 'closed', text: closedText(e.code, e.reason) });
      });
      const view = new RFB(target, socket, { shared: true });
      view.viewOnly = !control;
      view.scaleViewport = true;
      view.background = 'transparent';
      view.addEventListener('connect', () => !ended && setStatus({ kind: 'live' }));
      rfb = view;
    });
    return () => {
      ended = true;
      if (rfb) rfb.disconnect();
      else socket?.close();
    };
  }, [sessionId, control, attempt]);

  const live = status.kind === 'live';
  return (
    <section aria-label="Desktop" className="desktop-pane">
      <div className="row">
        <p role="status" className="muted">
          {status.kind === 'connecting' && 'Connecting to the box’s desktop…'}
          {live && (control ? 'Live: you control the mouse and keyboard.' : 'Live: watching.')}
          {status.kind === 'closed' && status.text}
        </p>
        {status.kind === 'closed' && (
          <button type="button" onClick={() => setAttempt((n) => n + 1)}>
            Reconnect
          </button>
        )}
        <button type="button" aria-pressed={control} onClick={() => setControl((c) => !c)}>
          {control ? 'Stop controlling' : 'Take control'}
        </button>
      </div>
      <div
        ref={screen}
        className="desktop-screen"
        data-live={live}
        aria-label={control ? 'Box desktop (you control it)' : 'Box desktop (view only)'}
        role="region"
      />
    </section>
  );
}
