import { useEffect, useRef, useState } from 'react';
import * as AsciinemaPlayer from 'asciinema-player';
import 'asciinema-player/dist/bundle/asciinema-player.css';

/**
 * A Terminal's whole recorded output played back with asciinema-player, from the session's
 * history as asciicast v2 (`…/terminals/:id/asciicast`): it plays when the box is gone too.
 */
export function TerminalPlayer({
  sessionId,
  terminalId,
}: {
  sessionId: string;
  terminalId: string;
}) {
  const ref = useRef<HTMLDivElement | null>(null);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (!open || !ref.current) return;
    const url = `/api/sessions/${sessionId}/terminals/${terminalId}/asciicast`;
    const player = AsciinemaPlayer.create(
      { url, fetchOpts: { credentials: 'same-origin' } },
      ref.current,
      { autoPlay: true, fit: 'width', idleTimeLimit: 2, controls: true },
    );
    return () => player.dispose();
  }, [open, sessionId, terminalId]);
  return (
    <div className="terminal-player">
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Close the recording' : 'Play the recording'}
      </button>
      {open && <div ref={ref} role="region" aria-label="Terminal recording" />}
    </div>
  );
}
