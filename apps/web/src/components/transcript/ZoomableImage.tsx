import { useState } from 'react';
import { Modal } from '../Modal';

interface Props {
  src: string;
  alt: string;
}

/** The image full size in a modal dialog; Escape or Close shuts it, focus goes back. */
function Zoom({ src, alt, onClose }: Props & { onClose: () => void }) {
  return (
    <Modal className="zoom" label={alt} onClose={onClose}>
      <button type="button" className="zoom-close" onClick={onClose} autoFocus>
        Close
      </button>
      <img src={src} alt={alt} />
    </Modal>
  );
}

/** An image in the transcript: a thumbnail button that opens it full size. */
export function ZoomableImage({ src, alt }: Props) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="thumb"
        aria-label={`Zoom: ${alt}`}
        onClick={() => setOpen(true)}
      >
        <img src={src} alt={alt} loading="lazy" />
      </button>
      {open && <Zoom src={src} alt={alt} onClose={() => setOpen(false)} />}
    </>
  );
}
