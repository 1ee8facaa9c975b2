import { forwardRef } from 'react';
import { fileUrl } from '../api';

interface Props {
  sessionId: string;
  path: string;
  label: string;
  /** The captions' .vtt; by default the one beside the video. */
  track?: string | null;
}

const vttBeside = (path: string) => path.replace(/\.[^./]+$/, '') + '.vtt';

/** A video of the box (a recording, an Auto QA run's), with its captions track. */
export const Video = forwardRef<HTMLVideoElement, Props>(function Video(
  { sessionId, path, label, track },
  ref,
) {
  const captions = track === undefined ? vttBeside(path) : track;
  return (
    <video
      ref={ref}
      className="video"
      controls
      preload="metadata"
      aria-label={label}
      src={fileUrl(sessionId, path)}
    >
      {captions && (
        <track kind="captions" src={fileUrl(sessionId, captions)} srcLang="en" label="Captions" />
      )}
    </video>
  );
});
