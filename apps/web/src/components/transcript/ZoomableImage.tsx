import { useLayoutEffect, useRef, useState } from 'react';

interface Props {
  src: string;
  alt: string;
}

/** The image full size in a modal dialog; Escape or Close shuts it, focus goes back. */
function Zoom({ src, alt, onClose }: Props & { onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useLayoutEffect(() => {
    const dialog = ref.current;
    const returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      dialog?.close();
      returnTo?.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className="zoom"
      aria-label={alt}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <button type="button" className="zoom-close" onClick={onClose} autoFocus>
        Close
      </button>
      <img src={src} alt={alt} />
    </dialog>
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
