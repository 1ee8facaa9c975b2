import { useLayoutEffect, useRef, type ReactNode } from 'react';

interface Props {
  className: string;
  onClose: () => void;
  children: ReactNode;
  /** Its name: `aria-label`, or the ids of its title and body. */
  label?: string;
  labelledBy?: string;
  describedBy?: string;
  /** Focused once it opens (else the dialog's own first focusable, or an autoFocus child). */
  initialFocus?: React.RefObject<HTMLElement | null>;
}

/**
 * A modal dialog: the native <dialog> opened with showModal, so focus stays inside and the page
 * behind is inert; Escape calls `onClose`. A layout effect, so the cleanup closes the dialog and
 * gives focus back where it was before React removes it (a removed dialog leaves it on the body).
 */
export function Modal({ className, onClose, children, initialFocus, ...name }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  useLayoutEffect(() => {
    const dialog = ref.current;
    const returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open) dialog.showModal();
    initialFocus?.current?.focus();
    return () => {
      dialog?.close();
      returnTo?.focus();
    };
    // Opened once per mount: what it focuses first is decided then.
  }, []);
  return (
    <dialog
      ref={ref}
      className={className}
      aria-label={name.label}
      aria-labelledby={name.labelledBy}
      aria-describedby={name.describedBy}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      {children}
    </dialog>
  );
}
