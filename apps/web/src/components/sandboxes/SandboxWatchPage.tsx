import { LiveDesktop } from '../desktop/LiveDesktop';
import { closedText } from '../desktop/desktop-socket';

/** The sandbox token of a watch link (`/sandboxes/<id>/watch#token=sbt_…`), if it has one. */
export function watchToken(hash: string = location.hash): string | undefined {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  return token ? token : undefined;
}

/** What a closed view says on the watch page: the desktop's states in words. */
function describeClose(code: number, reason: string, control: boolean): string {
  if (reason.startsWith('no_desktop')) {
    return 'The sandbox’s desktop is not running: start it with sandbox_desktop, then reconnect.';
  }
  if (reason.startsWith('not_running')) {
    return 'The sandbox is stopped: resume it with sandbox_resume, then reconnect.';
  }
  if (code === 4403 && control) return 'This link can watch only: it cannot take control.';
  if (code === 4410) return 'The live view ended: the sandbox’s desktop stopped.';
  return closedText(code, reason);
}

/**
 * A sandbox desktop's live view (sandbox_desktop's `watch` link, docs/SANDBOXES.md): a
 * signed-in person watches any sandbox of their org; with `#token=` in the link, whoever
 * holds the sandbox token watches that one sandbox without signing in (and takes control
 * only with a control token). The token stays in the fragment, which no request carries.
 */
export function SandboxWatchPage({ sandboxId, token }: { sandboxId: string; token?: string }) {
  return (
    <section aria-label="Sandbox desktop" className="desktop-pane sandbox-watch">
      <h1>Sandbox desktop</h1>
      <p className="muted">
        Sandbox <code>{sandboxId}</code>
        {token ? ' · opened with a sandbox token' : ''}
      </p>
      <LiveDesktop
        target={{ kind: 'sandbox', id: sandboxId }}
        token={token}
        label="Sandbox desktop"
        connecting="Connecting to the sandbox’s desktop…"
        describeClose={describeClose}
      />
    </section>
  );
}
