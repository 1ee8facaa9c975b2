import { useRef } from 'react';
import { clock } from '../format';
import type { Recording } from '@sessionboxer/contracts';
import { Video } from './Video';

/**
 * A recording of the box's desktop with its captions as steps: a click on a step seeks the
 * video to that caption's time.
 */
export function RecordingPlayer({
  sessionId,
  recording,
}: {
  sessionId: string;
  recording: Recording;
}) {
  const video = useRef<HTMLVideoElement>(null);
  const seek = (at: number) => {
    const el = video.current;
    if (!el) return;
    el.currentTime = at;
    el.focus();
  };
  return (
    <div className="player">
      <Video
        ref={video}
        sessionId={sessionId}
        path={recording.path}
        track={recording.track}
        label={`Recording ${recording.path}`}
      />
      <h4>Steps</h4>
      {recording.captions.length === 0 && <p className="muted">This recording has no captions.</p>}
      <ol className="steps" aria-label="Steps">
        {recording.captions.map((caption, i) => (
          <li key={`${caption.at}-${i}`}>
            <button type="button" className="step" onClick={() => seek(caption.at)}>
              <span className="step-time">{clock(caption.at)}</span> {caption.text}
            </button>
          </li>
        ))}
      </ol>
    </div>
  );
}
