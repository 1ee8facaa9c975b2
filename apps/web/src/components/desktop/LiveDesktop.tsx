import { useEffect, useRef, useState, type ReactNode } from 'react';
import { closedText, openDesktopSocket, type DesktopTarget } from './desktop-socket';

export type LiveStatus =
  { kind: 'connecting' } | { kind: 'live' } | { kind: 'closed'; code: number; reason: string };

export interface LiveDesktopProps {
  target: DesktopTarget;
  /** A sandbox token (the watch page's #token=), sent as the socket's first frame. */
  token?: string;
  /** "Box desktop": the screen's label, with "(view only)" or "(you control it)". */
  label: string;
  connecting: string;
  /** What a closed view says; by default the close reason. */
  describeClose?: (code: number, reason: string, control: boolean) => ReactNode;
  /** The control toggle is shown (a view token's page cannot take control). */
  canControl?: boolean;
}

/**
 * A box's desktop, live: noVNC over the control plane's relay to an x11vnc for this view.
 * Watching only by default; "Take control" opens a new view whose keys and clicks reach the
 * box (x11vnc refuses input on a view without control, whatever the page sends). Shared by
 * a session's Desktop pane and a sandbox's watch page.
 */
export function LiveDesktop(props: LiveDesktopProps) {
  const { target, token, label, connecting, describeClose, canControl = true } = props;
  const screen = useRef<HTMLDivElement>(null);
  const [control, setControl] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [status, setStatus] = useState<LiveStatus>({ kind: 'connecting' });
  const { kind, id } = target;

  useEffect(() => {
    const element = screen.current;
    if (!element) return;
    let ended = false;
    let rfb: { disconnect(): void } | null = null;
    setStatus({ kind: 'connecting' });
    let socket: WebSocket | null = null;
    // noVNC first, then the socket in the same task: a byte arriving before noVNC listens
    // would be lost (the box speaks first in RFB).
    void import('@novnc/novnc').then(({ default: RFB }) => {
      if (ended) return;
      socket = openDesktopSocket({ kind, id }, control, token);
      socket.addEventListener('close', (e) => {
        if (!ended) setStatus({ kind: 'closed', code: e.code, reason: e.reason });
      });
      const view = new RFB(element, socket, { shared: true });
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
  }, [kind, id, token, control, attempt]);

  // The status is the new view's from the same render on: the old view's "Live" must not be
  // shown as "you control" while the view with control is still connecting.
  const toggleControl = () => {
    setStatus({ kind: 'connecting' });
    setControl((c) => !c);
  };
  const reconnect = () => {
    setStatus({ kind: 'connecting' });
    setAttempt((n) => n + 1);
  };
  const live = status.kind === 'live';
  return (
    <>
      <div className="row">
        <p role="status" className="muted">
          {status.kind === 'connecting' && connecting}
          {live && (control ? 'Live: you control the mouse and keyboard.' : 'Live: watching.')}
          {status.kind === 'closed' &&
            (describeClose?.(status.code, status.reason, control) ??
              closedText(status.code, status.reason))}
        </p>
        {status.kind === 'closed' && (
          <button type="button" onClick={reconnect}>
            Reconnect
          </button>
        )}
        {canControl && (
          <button type="button" aria-pressed={control} onClick={toggleControl}>
            {control ? 'Stop controlling' : 'Take control'}
          </button>
        )}
      </div>
      <div
        ref={screen}
        className="desktop-screen"
        data-live={live}
        data-status={status.kind}
        aria-label={control ? `${label} (you control it)` : `${label} (view only)`}
        role="region"
      />
    </>
  );
}
