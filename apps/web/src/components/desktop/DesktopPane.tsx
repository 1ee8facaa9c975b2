import { LiveDesktop } from './LiveDesktop';

/** A session box's desktop, live (LiveDesktop, through the session's desktop-view socket). */
export function DesktopPane({ sessionId }: { sessionId: string }) {
  return (
    <section aria-label="Desktop" className="desktop-pane">
      <LiveDesktop
        target={{ kind: 'session', id: sessionId }}
        label="Box desktop"
        connecting="Connecting to the box’s desktop…"
      />
    </section>
  );
}
